/* The builtin bitcode, embedded in the library's read-only data. */
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
        .section .note.GNU-stack, "", @progbits
