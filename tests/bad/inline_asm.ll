define i32 @top(i32 %a) {
entry:
  %r = call i32 asm "bswap $0", "=r,0"(i32 %a)
  ret i32 %r
}
