declare i32 @__gxx_personality_v0(...)

define i32 @top(i32 %a) personality ptr @__gxx_personality_v0 {
entry:
  %c = icmp eq i32 %a, 0
  br i1 %c, label %ok, label %other
ok:
  ret i32 %a
other:
  ret i32 1
lpad:
  %lp = landingpad { ptr, i32 }
          cleanup
  resume { ptr, i32 } %lp
}
