/* The builtin bitcode libraries, embedded in the library's read-only data. Each is followed
   by a zero byte, outside its bounds. */
        .section .rodata.cucl_builtins, "a"
        .balign 16
        .globl cucl_host_builtins_begin
        .hidden cucl_host_builtins_begin
cucl_host_builtins_begin:
        .incbin CUCL_HOST_BUILTINS_BC
        .globl cucl_host_builtins_end
        .hidden cucl_host_builtins_end
cucl_host_builtins_end:
        .byte 0

#if CUCL_HAVE_NVPTX_BUILTINS
        .balign 16
        .globl cucl_nvptx_builtins_begin
        .hidden cucl_nvptx_builtins_begin
cucl_nvptx_builtins_begin:
        .incbin CUCL_NVPTX_BUILTINS_BC
        .globl cucl_nvptx_builtins_end
        .hidden cucl_nvptx_builtins_end
cucl_nvptx_builtins_end:
        .byte 0
#endif
        .section .note.GNU-stack, "", @progbits
