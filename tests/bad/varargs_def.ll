define i32 @top(i32 %n, ...) {
entry:
  ret i32 %n
}
