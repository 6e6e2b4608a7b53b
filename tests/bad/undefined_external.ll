declare i32 @foo(i32)

define i32 @top(i32 %a) {
entry:
  %r = call i32 @foo(i32 %a)
  ret i32 %r
}
