/* Loops counted by an argument: the depth of the array each accesses in every
   iteration bounds their trip count (hls.analysis.extent_trip_bound), or, where the
   index wraps or the access is conditional, nothing does. */
int sum_n(const int a[100], int n) {
    int s = 0;
    for (int i = 0; i < n; i++)
        s += a[i] * (i | 1);
    return s;
}

int sum_back(const int a[100], int n) {
    int s = 0;
    for (int i = n - 1; i >= 0; i--)
        s = s * 3 + a[i];
    return s;
}

int sum_step3(const int a[100], int n) {
    int s = 0;
    for (int i = 0; i < n; i += 3)
        s ^= a[i] + i;
    return s;
}

void copy_n(const short a[40], short b[50], int n) {
    for (int i = 0; i < n; i++)
        b[i + 7] = a[i] + 1;            /* b moves by one from 7: n <= 43; a: n <= 40 */
}

int wrapped(const int a[300], int n) {   /* (unsigned char)i wraps: any n is defined */
    int s = 0;
    for (int i = 0; i < n; i++)
        s += a[(unsigned char)i];
    return s;
}

int masked(const int a[256], int n) {    /* a whole power-of-two array: i & 255 wraps */
    int s = 0;
    for (int i = 0; i < n; i++)
        s += a[i & 255];
    return s;
}

int guarded(const int a[100], int n, int k) {  /* the access runs only while i < k */
    int s = 0;
    for (int i = 0; i < n; i++) {
        if (i < k)
            s += a[i];
        s ^= i;
    }
    return s;
}

int sum_from(const int a[100], int lo, int hi) {  /* from a run-time start (a CRS row):
                                                      a partition's banks are dynamic */
    int s = 0;
    for (int i = lo; i < hi; i++)
        s += a[i] * (i | 1);
    return s;
}
