define i32 @top(ptr %a, i32 %i) {
entry:
  %p = getelementptr inbounds i32, ptr %a, i32 %i
  %v = load i32, ptr %p, align 4
  ret i32 %v
}
