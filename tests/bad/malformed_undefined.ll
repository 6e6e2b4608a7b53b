; a use of a value that is defined nowhere
define i32 @top(i32 %a, i32 %b) {
entry:
  %s = add i32 %a, %b
  %t = mul i32 %s, %c
  ret i32 %t
}
