define i32 @inc(i32 %x) {
entry:
  %r = add i32 %x, 1
  ret i32 %r
}

define i32 @top(ptr %f, i32 %x) {
entry:
  %r = call i32 %f(i32 %x)
  ret i32 %r
}
