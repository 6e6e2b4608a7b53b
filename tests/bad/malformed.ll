; a syntax error: 'addd' is not an LLVM instruction
define i32 @top(i32 %a, i32 %b) {
entry:
  %s = addd i32 %a, %b
  ret i32 %s
}
