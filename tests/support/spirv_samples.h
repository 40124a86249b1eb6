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
)";

// Kernels "acquire_load", "release_store", "relaxed_load" and "seq_cst_add": one atomic each
// on an int in CrossWorkgroup memory at Device scope, with the memory semantics their names
// say (CrossWorkgroupMemory plus Acquire 0x2, Release 0x4, none, SequentiallyConsistent 0x10).
inline constexpr const char* kOrderedAtomics = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %acquire_load "acquire_load"
               OpEntryPoint Kernel %release_store "release_store"
               OpEntryPoint Kernel %relaxed_load "relaxed_load"
               OpEntryPoint Kernel %seq_cst_add "seq_cst_add"
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
        %ptr = OpTypePointer CrossWorkgroup %uint
         %fn = OpTypeFunction %void %ptr %ptr
     %device = OpConstant %uint 1
    %acquire = OpConstant %uint 0x202
    %release = OpConstant %uint 0x204
    %relaxed = OpConstant %uint 0x200
    %seq_cst = OpConstant %uint 0x210
        %one = OpConstant %uint 1
%acquire_load = OpFunction %void None %fn
         %a0 = OpFunctionParameter %ptr
         %a1 = OpFunctionParameter %ptr
         %l0 = OpLabel
         %av = OpAtomicLoad %uint %a0 %device %acquire
               OpStore %a1 %av
               OpReturn
               OpFunctionEnd
%release_store = OpFunction %void None %fn
         %b0 = OpFunctionParameter %ptr
         %b1 = OpFunctionParameter %ptr
         %l1 = OpLabel
         %bv = OpLoad %uint %b1
               OpAtomicStore %b0 %device %release %bv
               OpReturn
               OpFunctionEnd
%relaxed_load = OpFunction %void None %fn
         %c0 = OpFunctionParameter %ptr
         %c1 = OpFunctionParameter %ptr
         %l2 = OpLabel
         %cv = OpAtomicLoad %uint %c0 %device %relaxed
               OpStore %c1 %cv
               OpReturn
               OpFunctionEnd
%seq_cst_add = OpFunction %void None %fn
         %d0 = OpFunctionParameter %ptr
         %d1 = OpFunctionParameter %ptr
         %l3 = OpLabel
         %dv = OpAtomicIAdd %uint %d0 %device %seq_cst %one
               OpStore %d1 %dv
               OpReturn
               OpFunctionEnd
)";

}  // namespace spirv_samples
