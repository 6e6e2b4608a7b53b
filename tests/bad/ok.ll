define i32 @top(i32 %a, i32 %b) {
entry:
  %s = add i32 %a, %b
  ret i32 %s
}
