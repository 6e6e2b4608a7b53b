// Structs as a Vitis HLS user writes them: an array of particle structs in and out, and
// a bounding box struct passed by value (its fields are scalar inputs).  Each particle
// moves by its velocity and bounces off the box walls; the kernel returns how many
// bounced.  A particle every two cycles (II=2): pyhls keeps an array of structs field by
// field (a 16-bit word each), so the four fields of in[i] take both ports of in for two
// cycles (Vitis HLS packs the struct of an interface into one wide word).
//
//   pyhls cosim particles.cpp --top particles --tb particles.cpp
#include <stdint.h>
#include <stdio.h>

#define N 32

struct particle_t {
    int16_t x, y;
    int16_t vx, vy;
};

struct box_t {
    int16_t x0, y0, x1, y1;
};

int particles(const particle_t in[N], particle_t out[N], box_t box) {
    int bounced = 0;
step:
    for (int i = 0; i < N; i++) {
#pragma HLS PIPELINE II=2
        particle_t p = in[i];
        int x = p.x + p.vx, y = p.y + p.vy;
        bool bx = x < box.x0 || x > box.x1, by = y < box.y0 || y > box.y1;
        if (bx) {
            p.vx = -p.vx;
            x = x < box.x0 ? box.x0 : box.x1;
        }
        if (by) {
            p.vy = -p.vy;
            y = y < box.y0 ? box.y0 : box.y1;
        }
        p.x = x;
        p.y = y;
        out[i] = p;
        bounced += bx || by;
    }
    return bounced;
}

int main() {
    particle_t a[N], b[N];
    box_t box = {-100, -50, 100, 50};
    for (int i = 0; i < N; i++)
        a[i] = {int16_t(i * 13 % 200 - 100), int16_t(i * 7 % 100 - 50),
                int16_t((i % 9 - 4) * 6), int16_t((i % 7 - 3) * 5)};
    for (int t = 0; t < 2; t++) {
        int n = particles(t ? b : a, t ? a : b, box);
        box.x1 -= 20;
        long sum = 0;
        for (int i = 0; i < N; i++) sum += (t ? a : b)[i].x * 3 + (t ? a : b)[i].vy;
        printf("call %d: %d bounced, sum %ld\n", t, n, sum);
    }
    return 0;
}
