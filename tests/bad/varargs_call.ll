define i32 @first(i32 %n, ...) {
entry:
  ret i32 %n
}

define i32 @top(i32 %a) {
entry:
  %r = call i32 (i32, ...) @first(i32 %a, i32 2, i32 3)
  ret i32 %r
}
