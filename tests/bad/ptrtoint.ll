define i64 @top(ptr %p) {
entry:
  %v = load i32, ptr %p, align 4
  %a = ptrtoint ptr %p to i64
  ret i64 %a
}
