define i32 @is_even(i32 %n) {
entry:
  %z = icmp eq i32 %n, 0
  br i1 %z, label %yes, label %rec
yes:
  ret i32 1
rec:
  %m = sub i32 %n, 1
  %r = call i32 @is_odd(i32 %m)
  ret i32 %r
}

define i32 @is_odd(i32 %n) {
entry:
  %z = icmp eq i32 %n, 0
  br i1 %z, label %no, label %rec
no:
  ret i32 0
rec:
  %m = sub i32 %n, 1
  %r = call i32 @is_even(i32 %m)
  ret i32 %r
}
