define i32 @top(i32 %n) {
entry:
  %buf = alloca i32, i32 %n, align 4
  store i32 %n, ptr %buf, align 4
  %v = load i32, ptr %buf, align 4
  ret i32 %v
}
