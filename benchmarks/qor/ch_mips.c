/* ch_mips: an interpreter of a small MIPS-like instruction set (a whole program in the
   style of CHStone's mips, written from the MIPS32 encodings): 32-bit R-type (sll, srl, sra,
   jr, addu, subu, and, or, xor, slt, sltu), I-type (beq, bne, addiu, andi, ori, xori, lui,
   lw, sw) and J-type (j, jal) words, 32 registers, a word-addressed data memory, no branch
   delay slots.  The fetch/decode/execute loop switches on the opcode and, for R-type, on
   the function field.  The program it runs (assembled into imem below) bubble-sorts four
   arrays of 8 signed integers with a subroutine (jal/jr, $ra saved on a stack) and hashes
   each one into a checksum; it executes 2258 instructions.  main() returns the number of
   mismatches against the expected memory contents, checksum and instruction count. */

#define MIPS_ARRAYS 4
#define MIPS_FIRST_ARRAY \
      18588,   46740,   22067,   18445,   33127,   53979,  -50219,  -51593
#define MIPS_EXPECTED_DATA \
     -51593,  -50219,   18445,   18588,   22067,   33127,   46740,   53979, \
     -75327,  -51196,  -20466,   17071,   24718,   34193,   60945,   65119, \
     -89022,  -76232,  -62830,    3850,   41215,   56090,   66317,   81780, \
     -96068,  -58714,   18749,   61366,   63349,   70412,   71421,   93702
#define EXPECTED_CHECKSUM 0xF9C039B6u
#define EXPECTED_STEPS 2258

#include "mips.h"
