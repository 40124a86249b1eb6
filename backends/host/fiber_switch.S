/* Stack switching for work-item fibers (x86-64 System V).
 *
 * void cucl_fiber_switch(void** save_stack, void* next_stack)
 *   saves the callee-saved registers, MXCSR and the x87 control word on the current stack,
 *   stores the stack pointer in *save_stack, and resumes the fiber whose stack pointer is
 *   next_stack (saved the same way, or prepared by prepare_fiber_stack in fiber.cpp).
 * cucl_fiber_start: where a new fiber begins: calls r13(r12) and never returns. */
        .text
        .globl cucl_fiber_switch
        .hidden cucl_fiber_switch
        .type cucl_fiber_switch, @function
cucl_fiber_switch:
        .cfi_startproc
        pushq %rbp
        pushq %rbx
        pushq %r12
        pushq %r13
        pushq %r14
        pushq %r15
        subq $8, %rsp
        stmxcsr (%rsp)
        fnstcw 4(%rsp)
        movq %rsp, (%rdi)
        movq %rsi, %rsp
        ldmxcsr (%rsp)
        fldcw 4(%rsp)
        addq $8, %rsp
        popq %r15
        popq %r14
        popq %r13
        popq %r12
        popq %rbx
        popq %rbp
        ret
        .cfi_endproc
        .size cucl_fiber_switch, .-cucl_fiber_switch

        .globl cucl_fiber_start
        .hidden cucl_fiber_start
        .type cucl_fiber_start, @function
cucl_fiber_start:
        .cfi_startproc
        .cfi_undefined rip
        movq %r12, %rdi
        callq *%r13
        ud2
        .cfi_endproc
        .size cucl_fiber_start, .-cucl_fiber_start

        .section .note.GNU-stack, "", @progbits
