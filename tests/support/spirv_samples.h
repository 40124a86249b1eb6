// SPIR-V assembly (spirv-as) shared by the API tests and the code generator's unit tests.
#pragma once

namespace spirv_samples {

// Kernel "negate_through_call": negates io[0] (a float) through an unnamed function marked
// DontInline; the SPIR-V translator puts noinline on the call as well (as in the CTS's
// op_function_noinline).
inline constexpr const char* kDontInlineCall = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %kernel "negate_through_call"
      %float = OpTypeFloat 32
       %void = OpTypeVoid
  %ptr_cross = OpTypePointer CrossWorkgroup %float
  %kernel_fn = OpTypeFunction %void %ptr_cross
  %negate_fn = OpTypeFunction %float %float
     %negate = OpFunction %float DontInline %negate_fn
          %x = OpFunctionParameter %float
     %negate_entry = OpLabel
    %negated = OpFNegate %float %x
               OpReturnValue %negated
               OpFunctionEnd
     %kernel = OpFunction %void None %kernel_fn
         %io = OpFunctionParameter %ptr_cross
      %entry = OpLabel
      %value = OpLoad %float %io Aligned 4
     %result = OpFunctionCall %float %negate %value
               OpStore %io %result Aligned 4
               OpReturn
               OpFunctionEnd
)";;

}  // namespace spirv_samples
