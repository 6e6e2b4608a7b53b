define i32 @top(i32 %a) {
entry:
  %f = sitofp i32 %a to float
  %g = fmul float %f, 2.500000e+00
  %r = fptosi float %g to i32
  ret i32 %r
}
