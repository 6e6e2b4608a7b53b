define i32 @top(i64 %addr) {
entry:
  %p = inttoptr i64 %addr to ptr
  %v = load i32, ptr %p, align 4
  ret i32 %v
}
