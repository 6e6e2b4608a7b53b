/* ch_mips1: ch_mips.c on CHStone mips's workload -- one bubble sort of CHStone's
   A[8] = {22, 5, -9, 3, -17, 38, 0, 11} (then the same hash), 567 instructions -- so
   that its cycles compare with Bambu's published mips cycles; ch_mips sorts four arrays
   (2258 instructions, four times that workload).  Below, ch_mips.c's description:

   ch_mips: an interpreter of a small MIPS-like instruction set (a whole program in the
   style of CHStone's mips, written from the MIPS32 encodings): 32-bit R-type (sll, srl, sra,
   jr, addu, subu, and, or, xor, slt, sltu), I-type (beq, bne, addiu, andi, ori, xori, lui,
   lw, sw) and J-type (j, jal) words, 32 registers, a word-addressed data memory, no branch
   delay slots.  The fetch/decode/execute loop switches on the opcode and, for R-type, on
   the function field.  The program it runs (assembled into imem below) bubble-sorts four
   (here: one) arrays of 8 signed integers with a subroutine (jal/jr, $ra saved on a stack) and hashes
   each one into a checksum; it executes 2258 (here: 567) instructions.  main() returns the number of
   mismatches against the expected memory contents, checksum and instruction count. */

#define MIPS_ARRAYS 1
#define MIPS_FIRST_ARRAY \
         22,       5,      -9,       3,     -17,      38,       0,      11
#define MIPS_EXPECTED_DATA \
        -17,      -9,       0,       3,       5,      11,      22,      38, \
      34193,   24718,   65119,   60945,  -51196,  -75327,   17071,  -20466, \
     -62830,  -76232,   41215,   81780,   66317,  -89022,   56090,    3850, \
      18749,   71421,   93702,   61366,   70412,  -58714,   63349,  -96068
#define EXPECTED_CHECKSUM 0x635A6B35u
#define EXPECTED_STEPS 567

#include "mips.h"
