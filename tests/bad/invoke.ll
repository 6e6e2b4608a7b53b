declare i32 @__gxx_personality_v0(...)

define i32 @may_throw(i32 %x) {
entry:
  ret i32 %x
}

define i32 @top(i32 %a) personality ptr @__gxx_personality_v0 {
entry:
  %r = invoke i32 @may_throw(i32 %a)
          to label %ok unwind label %lpad
ok:
  ret i32 %r
lpad:
  %lp = landingpad { ptr, i32 }
          cleanup
  ret i32 0
}
