; a vector frem: pyhls's libm takes a scalar frem (clang's fmod) as a call of its fmod,
; but not a vector one, which canonicalisation makes a scalar frem after that
define float @top(float %a) {
entry:
  %v = insertelement <2 x float> undef, float %a, i32 0
  %w = frem <2 x float> %v, <float 2.500000e+00, float 2.500000e+00>
  %f = extractelement <2 x float> %w, i32 0
  ret float %f
}
