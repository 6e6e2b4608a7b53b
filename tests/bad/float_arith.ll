define float @top(float %a) {
entry:
  %f = frem float %a, 2.500000e+00
  ret float %f
}
