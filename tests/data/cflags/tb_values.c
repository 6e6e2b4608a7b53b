/* the second testbench file of tests/data/cflags */
int tb_value(int i) { return i * 11 - 7; }
