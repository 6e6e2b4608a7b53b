/* mips.h: the MIPS-like interpreter of ch_mips and ch_mips1 and the program it runs
   (described in ch_mips.c).  A program defines its workload before including it:
   MIPS_ARRAYS (arrays of 8 words sorted and hashed, 1..4), MIPS_FIRST_ARRAY (the 8
   initialisers of the first array), MIPS_EXPECTED_DATA (the 32 words of data memory
   afterwards), EXPECTED_CHECKSUM and EXPECTED_STEPS (instructions executed). */
#ifndef QOR_MIPS_H
#define QOR_MIPS_H

typedef unsigned int u32;

#define HALT_PC 0xFFFFFFFCu /* initial $ra: main's final jr ends the run */
#define DMEM_WORDS 64
#define MAX_STEPS 100000

static const u32 imem[60] = {
    0x241D0100u, /*   0: main:   addiu $sp, $zero, 256       # stack: top of data memory */
    0x27BDFFFCu, /*   4: addiu $sp, $sp, -4 */
    0xAFBF0000u, /*   8: sw    $ra, 0($sp)           # the halt address */
    0x24100000u, /*  12: addiu $s0, $zero, 0         # s0: current array */
    0x24110000u | MIPS_ARRAYS, /*  16: addiu $s1, $zero, MIPS_ARRAYS  # s1: arrays left */
    0x24120000u, /*  20: addiu $s2, $zero, 0         # s2: checksum */
    0x02002021u, /*  24: mloop:  addu  $a0, $s0, $zero */
    0x24050008u, /*  28: addiu $a1, $zero, 8 */
    0x0C000017u, /*  32: jal   sort */
    0x02002021u, /*  36: addu  $a0, $s0, $zero */
    0x24050008u, /*  40: addiu $a1, $zero, 8 */
    0x0C000028u, /*  44: jal   mix */
    0x02429026u, /*  48: xor   $s2, $s2, $v0 */
    0x00124140u, /*  52: sll   $t0, $s2, 5 */
    0x00124EC2u, /*  56: srl   $t1, $s2, 27 */
    0x01099025u, /*  60: or    $s2, $t0, $t1         # rotate left by 5 */
    0x26100020u, /*  64: addiu $s0, $s0, 32 */
    0x2631FFFFu, /*  68: addiu $s1, $s1, -1 */
    0x1620FFF3u, /*  72: bne   $s1, $zero, mloop */
    0xAC120080u, /*  76: sw    $s2, 128($zero) */
    0x8FBF0000u, /*  80: lw    $ra, 0($sp) */
    0x27BD0004u, /*  84: addiu $sp, $sp, 4 */
    0x03E00008u, /*  88: jr    $ra */
    0x24A9FFFFu, /*  92: sort:   addiu $t1, $a1, -1          # t1: compares per pass (n - 1) */
    0x01204021u, /*  96: addu  $t0, $t1, $zero       # t0: passes left */
    0x1100000Du, /* 100: outer:  beq   $t0, $zero, sdone */
    0x240A0000u, /* 104: addiu $t2, $zero, 0         # t2: j */
    0x00805821u, /* 108: addu  $t3, $a0, $zero       # t3: &a[j] */
    0x8D6C0000u, /* 112: inner:  lw    $t4, 0($t3) */
    0x8D6D0004u, /* 116: lw    $t5, 4($t3) */
    0x01AC082Au, /* 120: slt   $at, $t5, $t4 */
    0x10200002u, /* 124: beq   $at, $zero, noswap */
    0xAD6D0000u, /* 128: sw    $t5, 0($t3) */
    0xAD6C0004u, /* 132: sw    $t4, 4($t3) */
    0x256B0004u, /* 136: noswap: addiu $t3, $t3, 4 */
    0x254A0001u, /* 140: addiu $t2, $t2, 1 */
    0x1549FFF7u, /* 144: bne   $t2, $t1, inner */
    0x2508FFFFu, /* 148: addiu $t0, $t0, -1 */
    0x08000019u, /* 152: j     outer */
    0x03E00008u, /* 156: sdone:  jr    $ra */
    0x24020000u, /* 160: mix:    addiu $v0, $zero, 0 */
    0x3C0E9E37u, /* 164: lui   $t6, 0x9E37 */
    0x35CE79B9u, /* 168: ori   $t6, $t6, 0x79B9      # t6: 0x9E3779B9 */
    0x8C8C0000u, /* 172: mixl:   lw    $t4, 0($a0) */
    0x004C1026u, /* 176: xor   $v0, $v0, $t4 */
    0x00027980u, /* 180: sll   $t7, $v0, 6 */
    0x0002C0C3u, /* 184: sra   $t8, $v0, 3 */
    0x01F81021u, /* 188: addu  $v0, $t7, $t8 */
    0x004E1021u, /* 192: addu  $v0, $v0, $t6 */
    0x004EC82Bu, /* 196: sltu  $t9, $v0, $t6         # carry out */
    0x00591021u, /* 200: addu  $v0, $v0, $t9 */
    0x319900FFu, /* 204: andi  $t9, $t4, 0xFF */
    0x00591023u, /* 208: subu  $v0, $v0, $t9 */
    0x38425A5Au, /* 212: xori  $v0, $v0, 0x5A5A */
    0x004CC824u, /* 216: and   $t9, $v0, $t4 */
    0x00591023u, /* 220: subu  $v0, $v0, $t9 */
    0x24840004u, /* 224: addiu $a0, $a0, 4 */
    0x24A5FFFFu, /* 228: addiu $a1, $a1, -1 */
    0x14A0FFF0u, /* 232: bne   $a1, $zero, mixl */
    0x03E00008u, /* 236: jr    $ra */
};

static const int init_data[32] = {
    MIPS_FIRST_ARRAY,
      34193,   24718,   65119,   60945,  -51196,  -75327,   17071,  -20466,
     -62830,  -76232,   41215,   81780,   66317,  -89022,   56090,    3850,
      18749,   71421,   93702,   61366,   70412,  -58714,   63349,  -96068,
};

static const int expected_data[32] = {MIPS_EXPECTED_DATA};

/* signed comparison of two's-complement words without converting to int */
static u32 less_signed(u32 a, u32 b)
{
    return (a ^ 0x80000000u) < (b ^ 0x80000000u);
}

static u32 shift_right_arith(u32 a, u32 s)
{
    u32 r = a >> s;
    if (a >> 31)
        r |= ~(0xFFFFFFFFu >> s);
    return r;
}

int main(void)
{
    u32 reg[32];
    u32 dmem[DMEM_WORDS];
    u32 pc = 0;
    int steps = 0;
    int mismatches = 0;

    for (int i = 0; i < 32; i++)
        reg[i] = 0;
    for (int i = 0; i < DMEM_WORDS; i++)
        dmem[i] = i < 32 ? (u32)init_data[i] : 0;
    reg[31] = HALT_PC;

    while (pc != HALT_PC && steps < MAX_STEPS) {
        u32 ins = imem[(pc >> 2) % 60];
        u32 op = ins >> 26;
        u32 rs = (ins >> 21) & 31, rt = (ins >> 16) & 31, rd = (ins >> 11) & 31;
        u32 shamt = (ins >> 6) & 31, funct = ins & 63;
        u32 uimm = ins & 0xFFFF;
        u32 simm = (uimm ^ 0x8000u) - 0x8000u; /* sign-extended, modulo 2^32 */
        pc += 4;
        steps++;
        switch (op) {
        case 0x00:
            switch (funct) {
            case 0x00: reg[rd] = reg[rt] << shamt; break;                      /* sll */
            case 0x02: reg[rd] = reg[rt] >> shamt; break;                      /* srl */
            case 0x03: reg[rd] = shift_right_arith(reg[rt], shamt); break;     /* sra */
            case 0x08: pc = reg[rs]; break;                                    /* jr */
            case 0x21: reg[rd] = reg[rs] + reg[rt]; break;                     /* addu */
            case 0x23: reg[rd] = reg[rs] - reg[rt]; break;                     /* subu */
            case 0x24: reg[rd] = reg[rs] & reg[rt]; break;                     /* and */
            case 0x25: reg[rd] = reg[rs] | reg[rt]; break;                     /* or */
            case 0x26: reg[rd] = reg[rs] ^ reg[rt]; break;                     /* xor */
            case 0x2A: reg[rd] = less_signed(reg[rs], reg[rt]); break;         /* slt */
            case 0x2B: reg[rd] = reg[rs] < reg[rt]; break;                     /* sltu */
            default: break;
            }
            break;
        case 0x02: pc = (pc & 0xF0000000u) | ((ins & 0x3FFFFFFu) << 2); break;      /* j */
        case 0x03:                                                                   /* jal */
            reg[31] = pc;
            pc = (pc & 0xF0000000u) | ((ins & 0x3FFFFFFu) << 2);
            break;
        case 0x04: if (reg[rs] == reg[rt]) pc += simm << 2; break;                /* beq */
        case 0x05: if (reg[rs] != reg[rt]) pc += simm << 2; break;                /* bne */
        case 0x09: reg[rt] = reg[rs] + simm; break;                               /* addiu */
        case 0x0C: reg[rt] = reg[rs] & uimm; break;                               /* andi */
        case 0x0D: reg[rt] = reg[rs] | uimm; break;                               /* ori */
        case 0x0E: reg[rt] = reg[rs] ^ uimm; break;                               /* xori */
        case 0x0F: reg[rt] = uimm << 16; break;                                   /* lui */
        case 0x23: reg[rt] = dmem[((reg[rs] + simm) >> 2) % DMEM_WORDS]; break;   /* lw */
        case 0x2B: dmem[((reg[rs] + simm) >> 2) % DMEM_WORDS] = reg[rt]; break;   /* sw */
        default: break;
        }
        reg[0] = 0;
    }

    for (int i = 0; i < 32; i++)
        if (dmem[i] != (u32)expected_data[i])
            mismatches++;
    if (dmem[32] != EXPECTED_CHECKSUM)
        mismatches++;
    if (steps != EXPECTED_STEPS)
        mismatches++;
    return mismatches;
}

#endif
