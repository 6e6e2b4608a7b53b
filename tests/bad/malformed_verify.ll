; parses, but the verifier rejects it: %t is used before it is defined
define i32 @top(i32 %a, i32 %b) {
entry:
  %s = add i32 %a, %t
  %t = mul i32 %a, %b
  ret i32 %s
}
