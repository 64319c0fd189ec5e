	.file	"<string>"
	.section	.rodata.cst16,"aM",@progbits,16
	.p2align	4, 0x0
LCPI:
	.long	1127219200
	.long	1160773632
	.long	0
	.long	0
LCPI:
	.quad	0x4330000000000000
	.quad	0x4530000000000000
LCPI:
	.quad	0x8000000000000000
	.quad	0x8000000000000000
	.section	.rodata.cst4,"aM",@progbits,4
	.p2align	2, 0x0
LCPI:
	.long	0x3f800000
	.section	.rodata.cst8,"aM",@progbits,8
	.p2align	3, 0x0
LCPI:
	.quad	0x3ff0000000000000
	.section	.ltext,"axl",@progbits
	.weak	SYM
	.p2align	4
	.type	SYM,@function
SYM:
	.cfi_startproc
	pushq	%rbp
	.cfi_def_cfa_offset 16
	pushq	%r15
	.cfi_def_cfa_offset 24
	pushq	%r14
	.cfi_def_cfa_offset 32
	pushq	%r13
	.cfi_def_cfa_offset 40
	pushq	%r12
	.cfi_def_cfa_offset 48
	pushq	%rbx
	.cfi_def_cfa_offset 56
	subq	$1208, %rsp
	.cfi_def_cfa_offset 1264
	.cfi_offset %rbx, -56
	.cfi_offset %r12, -48
	.cfi_offset %r13, -40
	.cfi_offset %r14, -32
	.cfi_offset %r15, -24
	.cfi_offset %rbp, -16
	movq	$0, 360(%rsp)
	movq	%rdx, %r13
	movq	1280(%rsp), %rax
	movq	%rsi, %r15
	movq	1296(%rsp), %r12
	movq	%rdi, 624(%rsp)
	vmovsd	%xmm5, 264(%rsp)
	vmovsd	%xmm2, 648(%rsp)
	vmovsd	%xmm1, 640(%rsp)
	vmovsd	%xmm0, 632(%rsp)
	movq	24(%rdx), %rbx
	movq	8264(%rbx), %rdx
	movq	8384(%rbx), %r14
	movq	8208(%rbx), %rcx
	movq	8320(%rbx), %rsi
	movq	9744(%rbx), %r9
	movq	9752(%rbx), %r8
	movq	8376(%rbx), %r10
	movq	9152(%rbx), %rbp
	movq	9720(%rbx), %rdi
	movq	9776(%rbx), %r11
	movq	%rdx, 144(%rsp)
	movq	8632(%rbx), %rdx
	xorq	%r14, %rax
	movq	%rcx, 152(%rsp)
	movq	%rsi, 136(%rsp)
	movq	%r9, 176(%rsp)
	movq	%r8, 48(%rsp)
	movq	9872(%rbx), %rcx
	movq	9736(%rbx), %rsi
	movq	9760(%rbx), %r8
	movq	9768(%rbx), %r9
	orq	%r12, %rax
	movq	9728(%rbx), %rax
	movq	%rdx, 128(%rsp)
	movq	9712(%rbx), %rdx
	movq	%rcx, 352(%rsp)
	je	LBB
	movq	%r15, 40(%rsp)
	movq	8216(%rbx), %r15
	movq	%r12, %rcx
	sarq	$63, %rcx
	movq	%r13, 56(%rsp)
	movq	%r10, 120(%rsp)
	movq	%rcx, %r13
	andq	%r15, %r13
	addq	%r12, %r13
	movq	%r13, %r10
	js	LBB
	movq	%r10, 32(%rsp)
	movq	8272(%rbx), %r10
	cmpq	%r15, %r13
	jge	LBB
LBB:
	movq	%rcx, %r13
	andq	%r10, %r13
	addq	%r12, %r13
	movq	%r13, %r15
	js	LBB
	movq	%r15, 24(%rsp)
	movq	8328(%rbx), %r15
	cmpq	%r10, %r13
	jge	LBB
LBB:
	movq	%rcx, %r10
	andq	%r15, %r10
	addq	%r12, %r10
	movq	%r10, %r13
	js	LBB
	cmpq	%r15, %r10
	jge	LBB
LBB:
	movq	%rcx, %r15
	andq	%r14, %r15
	movq	%r13, 192(%rsp)
	movq	%rsi, 384(%rsp)
	addq	%r12, %r15
	movq	%r15, %r13
	js	LBB
LBB:
	movq	8640(%rbx), %r10
	movq	%rdi, 80(%rsp)
	movq	%rbp, %rsi
	cmpq	%r14, %r15
	jge	LBB
LBB:
	movq	%rcx, %rbp
	andq	%r10, %rbp
	movq	%rdx, %rdi
	addq	%r12, %rbp
	movq	%rbp, %r14
	js	LBB
	movq	9160(%rbx), %r15
	movq	%r12, %rdx
	cmpq	%r10, %rbp
	jge	LBB
LBB:
	movq	%rcx, %r12
	andq	%r15, %r12
	addq	%rdx, %r12
	movq	%r12, %rbp
	js	LBB
	movq	9880(%rbx), %r10
	cmpq	%r15, %r12
	jge	LBB
LBB:
	movq	9168(%rbx), %r15
	andq	%r10, %rcx
	movq	%rdx, %r12
	addq	%rdx, %rcx
	movq	%rcx, %rbx
	js	LBB
	imulq	%r15, %rbp
	movq	%rdi, %rdx
	cmpq	%r10, %rcx
	jge	LBB
LBB:
	movq	152(%rsp), %rcx
	movq	32(%rsp), %rdi
	movq	144(%rsp), %r10
	movq	136(%rsp), %r15
	addq	%rbx, 352(%rsp)
	leaq	(%rsi,%rbp,8), %rbp
	movq	384(%rsp), %rsi
	leaq	(%rcx,%rdi,8), %rcx
	movq	24(%rsp), %rdi
	movq	%rcx, 152(%rsp)
	leaq	(%r10,%rdi,8), %rcx
	movq	192(%rsp), %rdi
	movq	120(%rsp), %r10
	movq	%rcx, 144(%rsp)
	leaq	(%r15,%rdi,8), %rcx
	movq	128(%rsp), %rdi
	leaq	(%r10,%r13,8), %r10
	movq	40(%rsp), %r15
	movq	56(%rsp), %r13
	movq	%rcx, 136(%rsp)
	leaq	(%rdi,%r14,8), %rcx
	movq	80(%rsp), %rdi
	movq	%rcx, 128(%rsp)
LBB:
	movq	176(%rsp), %rcx
	movq	%rdx, 920(%rsp)
	movq	%rdi, 928(%rsp)
	movq	%rax, 936(%rsp)
	movq	%rsi, 944(%rsp)
	movq	%rax, 160(%rsp)
	movq	%rcx, 952(%rsp)
	movq	48(%rsp), %rcx
	movq	%rcx, 960(%rsp)
	movq	%r8, 968(%rsp)
	movq	%r9, 976(%rsp)
	movq	%r11, 984(%rsp)
	testq	%rax, %rax
	movl	$1, %ecx
	cmovnsq	%rax, %rcx
	js	LBB
	movabsq	$LCPI, %rdi
	vmovq	%rax, %xmm0
	movabsq	$LCPI, %rdx
	movq	%r10, %r14
	vpunpckldq	(%rdi), %xmm0, %xmm0
	vsubpd	(%rdx), %xmm0, %xmm0
	vshufpd	$1, %xmm0, %xmm0, %xmm1
	vaddsd	%xmm0, %xmm1, %xmm0
	vcvtsi2sd	%rcx, %xmm15, %xmm1
	vucomisd	%xmm1, %xmm0
	jne	LBB
	jnp	LBB
LBB:
	movabsq	$.const.picklebuf.6c409b61c28c4a45c6b4e03f3df78174881783bf, %rax
	jmp	LBB
LBB:
	movq	%rcx, %rdx
	orq	%rax, %rdx
	movq	%r10, %r14
	shrq	$32, %rdx
	testq	%rdx, %rdx
	jne	LBB
	movb	$1, %al
	testb	%al, %al
	jne	LBB
	movabsq	$.const.picklebuf.be575d9b86d9dd13c0c24ed13b67ed1609906ca6, %rax
	jmp	LBB
LBB:
	je	LBB
	je	LBB
	cqto
	idivq	%rcx
	jmp	LBB
LBB:
	xorl	%edx, %edx
	divl	%ecx
	jmp	LBB
LBB:
	movl	$1, %eax
LBB:
	movq	%rax, 160(%rsp)
LBB:
	movq	%rsi, %r10
	vmovsd	%xmm3, 312(%rsp)
	vmovsd	%xmm4, 240(%rsp)
	leaq	960(%rsp), %rsi
	leaq	976(%rsp), %rdx
	movabsq	$numba_attempt_nocopy_reshape, %rax
	leaq	160(%rsp), %r8
	leaq	360(%rsp), %r9
	movl	$2, %edi
	movl	$1, %ecx
	pushq	$0
	.cfi_adjust_cfa_offset 8
	pushq	%r10
	.cfi_adjust_cfa_offset 8
	callq	*%rax
	addq	$16, %rsp
	.cfi_adjust_cfa_offset -16
	testl	%eax, %eax
	je	LBB
	vmovsd	264(%rsp), %xmm3
	vmovsd	240(%rsp), %xmm4
	vmovsd	312(%rsp), %xmm12
	movq	952(%rsp), %rcx
	movq	944(%rsp), %rax
	movq	%rcx, 328(%rsp)
	cmpq	$4, %rax
	jne	LBB
LBB:
	cmpq	$0, 1280(%rsp)
	movq	%rbp, 232(%rsp)
	jle	LBB
	movq	24(%r13), %rax
	movq	232(%rsp), %rbp
	movq	%r14, 120(%rsp)
	movq	7448(%rax), %rsi
	movq	7392(%rax), %rdx
	movq	7776(%rax), %rdi
	movq	7336(%rax), %rcx
	movq	616(%rax), %rbx
	movq	144(%rax), %r10
	movq	544(%rax), %r8
	movq	%rsi, 712(%rsp)
	movq	7560(%rax), %rsi
	movq	%rdx, 720(%rsp)
	movq	7504(%rax), %rdx
	movq	%rdi, 296(%rsp)
	movq	7992(%rax), %rdi
	movq	%rcx, 728(%rsp)
	movabsq	$LCPI, %rcx
	movq	%rbx, 656(%rsp)
	movq	%r10, 664(%rsp)
	vmovapd	(%rcx), %xmm1
	leaq	8(%rbx), %rcx
	movq	%r12, %rbx
	movq	%rcx, 576(%rsp)
	movq	%rsi, 696(%rsp)
	movq	7920(%rax), %rsi
	movq	%rdx, 704(%rsp)
	movq	7616(%rax), %rdx
	movq	%rdi, 280(%rsp)
	movq	472(%rax), %rdi
	vmovapd	%xmm1, 992(%rsp)
	movq	%rsi, 288(%rsp)
	movabsq	$LCPI, %rsi
	movq	%rdx, 688(%rsp)
	movq	7688(%rax), %rdx
	vmovss	(%rsi), %xmm0
	movq	856(%rax), %rsi
	movq	968(%rax), %rax
	movq	%rdx, 248(%rsp)
	movq	%rsi, 680(%rsp)
	movq	328(%rsp), %rsi
	movq	%rax, 672(%rsp)
	vmovss	%xmm0, 172(%rsp)
	leaq	3072(%rsi), %r9
	leaq	2816(%rsi), %r11
	leaq	15872(%rsi), %rcx
	movq	%r9, 616(%rsp)
	leaq	3584(%rsi), %r9
	movq	%r11, 256(%rsp)
	leaq	3328(%rsi), %r11
	movq	%rcx, 560(%rsp)
	movq	%r9, 600(%rsp)
	leaq	4096(%rsi), %r9
	movq	%r11, 608(%rsp)
	leaq	3840(%rsi), %r11
	movq	%r9, 584(%rsp)
	leaq	8(%rdx), %r9
	movq	%r11, 592(%rsp)
	leaq	4352(%rsi), %r11
	xorl	%edx, %edx
	movq	%r9, 320(%rsp)
	leaq	516(%rsi), %r9
	movq	%r11, 304(%rsp)
	movq	%r9, 568(%rsp)
	jmp	LBB
	.p2align	4
LBB:
	movl	$0, 4608(%r15,%r11,4)
	movl	$0, 4864(%r15,%r11,4)
	movl	$0, 5120(%r15,%r11,4)
	movl	$0, 5376(%r15,%r11,4)
	movl	$0, 5632(%r15,%r11,4)
	movl	$0, 8448(%r15,%r11,4)
	movl	$0, 8704(%r15,%r11,4)
	movl	$0, 8960(%r15,%r11,4)
	movl	$0, 9216(%r15,%r11,4)
	movq	%r9, %r14
	movl	$0, 9472(%r15,%r11,4)
LBB:
	movl	$0, 6656(%r15,%r11,4)
	movl	$0, 6912(%r15,%r11,4)
	movl	$0, 7168(%r15,%r11,4)
	movl	$0, 7424(%r15,%r11,4)
	movl	$0, 7680(%r15,%r11,4)
	movl	$0, 7936(%r15,%r11,4)
	movl	$0, 8192(%r15,%r11,4)
LBB:
	movq	1296(%rsp), %r12
	incq	%rdx
	incq	%rbx
	addq	$16, %rbp
	cmpq	1280(%rsp), %rdx
	je	LBB
LBB:
	movq	1272(%rsp), %rax
	movq	728(%rsp), %r9
	movq	696(%rsp), %rsi
	movq	720(%rsp), %r15
	vmovaps	%xmm12, %xmm2
	vmovaps	%xmm4, %xmm7
	vmovaps	%xmm3, %xmm8
	movq	(%rax,%rdx,8), %rcx
	movq	(%r9,%rcx,8), %r11
	movq	152(%rsp), %r9
	movq	(%rsi,%rcx,8), %rsi
	movq	(%r15,%rcx,8), %r15
	movq	%rcx, 72(%rsp)
	movq	%rcx, (%r9,%rdx,8)
	movq	144(%rsp), %rcx
	movq	136(%rsp), %r9
	movq	%r11, (%rcx,%rdx,8)
	movq	352(%rsp), %rcx
	movq	%r15, (%r9,%rdx,8)
	movq	%rsi, (%r14,%rdx,8)
	movb	$1, (%rcx,%rdx)
	cmpq	$2, (%r10,%r11,8)
	jne	LBB
	cmpq	$2, (%r10,%r15,8)
	vmovaps	%xmm12, %xmm2
	vmovaps	%xmm4, %xmm7
	vmovaps	%xmm3, %xmm8
	jne	LBB
	vmovsd	632(%rsp), %xmm2
	vmovsd	640(%rsp), %xmm7
	vmovsd	648(%rsp), %xmm8
LBB:
	movq	672(%rsp), %rcx
	movq	680(%rsp), %rax
	vmovss	172(%rsp), %xmm9
	movq	%r14, %r9
	movq	%r11, 192(%rsp)
	movq	%r15, 528(%rsp)
	vmovsd	(%rcx,%r11,8), %xmm5
	vmovsd	(%rax,%r11,8), %xmm0
	vmovsd	(%rax,%r15,8), %xmm1
	vmovaps	%xmm5, 368(%rsp)
	vmovsd	(%rcx,%r15,8), %xmm5
	vmovaps	%xmm5, 176(%rsp)
	cmpq	$2, %rsi
	je	LBB
	vxorpd	%xmm9, %xmm9, %xmm9
LBB:
	addq	%rdx, %r12
	movabsq	$4611686018427387840, %rcx
	movq	72(%rsp), %r14
	vcvtsd2ss	%xmm0, %xmm0, %xmm11
	vcvtsd2ss	%xmm2, %xmm2, %xmm2
	movq	%r12, %rax
	andq	%rcx, %rax
	movq	688(%rsp), %rcx
	movl	%r12d, %r11d
	andl	$63, %r11d
	imulq	$164, %rax, %r15
	movq	712(%rsp), %rax
	addq	328(%rsp), %r15
	movq	%r14, %r13
	shlq	$4, %r13
	cmpb	$0, 1304(%rsp)
	vmovsd	(%rax,%r14,8), %xmm10
	movq	704(%rsp), %rax
	vmovsd	(%rax,%r14,8), %xmm5
	movq	128(%rsp), %rax
	vcvtsd2ss	%xmm10, %xmm10, %xmm10
	vmovsd	%xmm5, (%rax,%rdx,8)
	movl	%r11d, %eax
	vmovsd	(%rcx,%r13), %xmm5
	vmovsd	8(%rcx,%r13), %xmm6
	vmovss	%xmm11, (%r15,%rax,4)
	vmovaps	368(%rsp), %xmm11
	vcvtsd2ss	%xmm11, %xmm11, %xmm11
	vcvtsd2ss	%xmm5, %xmm5, %xmm14
	vcvtsd2ss	%xmm6, %xmm6, %xmm13
	vmovss	%xmm11, 256(%r15,%rax,4)
	vcvtsd2ss	%xmm1, %xmm1, %xmm11
	vmovss	%xmm11, 512(%r15,%rax,4)
	vmovaps	176(%rsp), %xmm11
	vcvtsd2ss	%xmm11, %xmm11, %xmm11
	vmovss	%xmm11, 768(%r15,%rax,4)
	vmovss	%xmm14, 1024(%r15,%rax,4)
	vmovss	%xmm13, 1280(%r15,%rax,4)
	vmovss	%xmm10, 1536(%r15,%rax,4)
	vcvtsd2ss	%xmm7, %xmm7, %xmm10
	vcvtsd2ss	%xmm8, %xmm8, %xmm7
	vmovss	%xmm2, 1792(%r15,%rax,4)
	vmovss	%xmm10, 2048(%r15,%rax,4)
	vmovss	%xmm7, 2304(%r15,%rax,4)
	vmovss	%xmm9, 2560(%r15,%rax,4)
	je	LBB
	testq	%rsi, %rsi
	jle	LBB
	movq	72(%rsp), %rax
	movq	288(%rsp), %rcx
	movq	280(%rsp), %r9
	addq	%rax, %rax
	vmovsd	(%rcx,%rax,8), %xmm2
	vmovsd	(%r9,%rax,8), %xmm7
	vcvtsd2ss	%xmm2, %xmm2, %xmm2
	vcvtsd2ss	%xmm7, %xmm7, %xmm7
	vmovss	%xmm2, 4608(%r15,%r11,4)
	vmovss	%xmm7, 4864(%r15,%r11,4)
	movl	$0, 5120(%r15,%r11,4)
	movl	$0, 5376(%r15,%r11,4)
	movl	$0, 5632(%r15,%r11,4)
	vxorps	%xmm2, %xmm2, %xmm2
	vxorps	%xmm7, %xmm7, %xmm7
	cmpq	$1, %rsi
	je	LBB
	movq	288(%rsp), %rcx
	movq	280(%rsp), %r9
	vmovsd	8(%rcx,%rax,8), %xmm2
	vmovsd	8(%r9,%rax,8), %xmm7
	vcvtsd2ss	%xmm2, %xmm2, %xmm2
	vcvtsd2ss	%xmm7, %xmm7, %xmm7
LBB:
	vmovss	%xmm2, 8448(%r15,%r11,4)
	vmovss	%xmm7, 8704(%r15,%r11,4)
	movl	$0, 8960(%r15,%r11,4)
	movl	$0, 9216(%r15,%r11,4)
	movl	$0, 9472(%r15,%r11,4)
	jmp	LBB
	.p2align	4
LBB:
	movl	$0, 4608(%r15,%r11,4)
	movl	$0, 4864(%r15,%r11,4)
	movl	$0, 5120(%r15,%r11,4)
	movl	$0, 5376(%r15,%r11,4)
	movl	$0, 5632(%r15,%r11,4)
	movl	$0, 8448(%r15,%r11,4)
	movl	$0, 8704(%r15,%r11,4)
	movl	$0, 8960(%r15,%r11,4)
	movl	$0, 9216(%r15,%r11,4)
	movl	$0, 9472(%r15,%r11,4)
	movq	%r9, %r14
	testq	%rsi, %rsi
	jle	LBB
LBB:
	movq	192(%rsp), %r9
	movq	%rbx, %rax
	movq	%rbx, 744(%rsp)
	andl	$63, %ebx
	movq	%rdx, 344(%rsp)
	movq	528(%rsp), %rdx
	shrq	$6, %rax
	movq	%r11, 736(%rsp)
	vxorps	992(%rsp), %xmm5, %xmm2
	vaddsd	%xmm1, %xmm0, %xmm8
	shll	$2, %ebx
	imulq	$10496, %rax, %r11
	movq	%rbx, 336(%rsp)
	movq	%r9, %rbx
	shlq	$4, %rbx
	movq	%rdx, %r14
	shlq	$4, %r14
	leaq	1(%r9,%r9), %rcx
	leaq	(%rdi,%rbx), %rax
	leaq	(%rdi,%r14), %r10
	movq	%r14, 464(%rsp)
	addq	%r8, %r14
	movq	%rax, 64(%rsp)
	movq	656(%rsp), %rax
	movq	%r10, 48(%rsp)
	leaq	1(%rdx,%rdx), %r10
	movq	%r14, 32(%rsp)
	leaq	(%r8,%rbx), %r14
	vmovaps	%xmm2, 384(%rsp)
	movq	%r14, 24(%rsp)
	leaq	(%rax,%rdx,8), %rdx
	leaq	(%rax,%r9,8), %rax
	movq	%rdx, 56(%rsp)
	movq	%rax, 40(%rsp)
	cmpq	$16, %rsi
	jae	LBB
	vmovapd	368(%rsp), %xmm7
LBB:
	xorl	%eax, %eax
	movabsq	$LCPI, %r12
LBB:
	imulq	$3840, %rax, %rdx
	addq	336(%rsp), %rdx
	movq	72(%rsp), %r9
	addq	296(%rsp), %r13
	addq	%rdx, %r11
	movq	%rax, %rdx
	shlq	$4, %rdx
	addq	320(%rsp), %rdx
	shlq	$5, %r9
	addq	304(%rsp), %r11
	addq	%r9, %rdx
	movq	64(%rsp), %r9
	jmp	LBB
	.p2align	4
LBB:
	vcvtsd2ss	%xmm0, %xmm0, %xmm13
	vcvtsd2ss	%xmm2, %xmm2, %xmm14
	movq	32(%rsp), %rbx
	vcvtsd2ss	%xmm1, %xmm1, %xmm15
	vcvtsd2ss	%xmm12, %xmm12, %xmm12
	vcvtsd2ss	%xmm11, %xmm11, %xmm11
	vcvtsd2ss	%xmm10, %xmm10, %xmm10
	movq	40(%rsp), %r14
	addq	$16, %rdx
	vmovss	%xmm13, -1536(%r11)
	vmovss	%xmm14, -1280(%r11)
	vcvtsd2ss	%xmm9, %xmm9, %xmm14
	vmovss	%xmm15, -1024(%r11)
	vmovss	%xmm14, -768(%r11)
	vmovss	%xmm12, -512(%r11)
	vmovss	%xmm11, -256(%r11)
	vmovss	%xmm10, (%r11)
	addq	$3840, %r11
	vmovsd	(%rbx), %xmm10
	movq	56(%rsp), %rbx
	vmovsd	(%rbx), %xmm11
	movq	24(%rsp), %rbx
	vmulsd	%xmm11, %xmm9, %xmm9
	vmulsd	%xmm1, %xmm11, %xmm1
	vaddsd	(%r8,%r10,8), %xmm1, %xmm1
	vsubsd	%xmm9, %xmm10, %xmm9
	vmovsd	(%r14), %xmm10
	vsubsd	(%rbx), %xmm9, %xmm9
	vsubsd	(%r8,%rcx,8), %xmm1, %xmm1
	vmulsd	%xmm2, %xmm10, %xmm2
	vmulsd	%xmm0, %xmm10, %xmm0
	vsubsd	%xmm0, %xmm1, %xmm0
	vaddsd	%xmm2, %xmm9, %xmm2
	vmulsd	%xmm2, %xmm5, %xmm1
	vmulsd	%xmm0, %xmm6, %xmm0
	vaddsd	%xmm0, %xmm1, %xmm0
	vmovsd	%xmm0, (%rbp,%rax,8)
	incq	%rax
	cmpq	%rax, %rsi
	je	LBB
LBB:
	movq	48(%rsp), %rbx
	vmovsd	-8(%rdx), %xmm1
	vmovsd	(%rdx), %xmm9
	vsubsd	(%r9), %xmm1, %xmm0
	vsubsd	(%rdi,%rcx,8), %xmm9, %xmm2
	vsubsd	(%rdi,%r10,8), %xmm9, %xmm9
	vsubsd	(%rbx), %xmm1, %xmm1
	vmulsd	%xmm0, %xmm6, %xmm10
	vmulsd	%xmm2, %xmm5, %xmm11
	vmulsd	%xmm5, %xmm9, %xmm12
	vsubsd	%xmm11, %xmm10, %xmm10
	vmulsd	%xmm1, %xmm6, %xmm11
	vsubsd	%xmm12, %xmm11, %xmm11
	vmulsd	%xmm7, %xmm10, %xmm12
	vmulsd	%xmm12, %xmm10, %xmm10
	vmulsd	176(%rsp), %xmm11, %xmm12
	vaddsd	%xmm10, %xmm8, %xmm10
	vmulsd	%xmm12, %xmm11, %xmm11
	vaddsd	%xmm11, %xmm10, %xmm12
	vxorpd	%xmm10, %xmm10, %xmm10
	vxorpd	%xmm11, %xmm11, %xmm11
	vucomisd	%xmm10, %xmm12
	jbe	LBB
	vmovsd	(%r12), %xmm11
	vdivsd	%xmm12, %xmm11, %xmm11
LBB:
	vsubsd	%xmm0, %xmm1, %xmm13
	vsubsd	%xmm2, %xmm9, %xmm14
	vmovsd	(%r13,%rax,8), %xmm12
	vmovapd	384(%rsp), %xmm15
	vmulsd	%xmm5, %xmm13, %xmm13
	vmulsd	%xmm6, %xmm14, %xmm14
	vaddsd	%xmm14, %xmm13, %xmm13
	vmulsd	%xmm2, %xmm6, %xmm14
	vsubsd	%xmm13, %xmm12, %xmm12
	vmulsd	%xmm0, %xmm15, %xmm13
	vsubsd	%xmm14, %xmm13, %xmm13
	vmulsd	%xmm1, %xmm15, %xmm14
	vmulsd	%xmm6, %xmm9, %xmm15
	vsubsd	%xmm15, %xmm14, %xmm14
	vmulsd	%xmm7, %xmm13, %xmm15
	vmulsd	%xmm15, %xmm13, %xmm13
	vmulsd	176(%rsp), %xmm14, %xmm15
	vaddsd	%xmm13, %xmm8, %xmm13
	vmulsd	%xmm15, %xmm14, %xmm14
	vaddsd	%xmm14, %xmm13, %xmm13
	vucomisd	%xmm10, %xmm13
	jbe	LBB
	vmovsd	(%r12), %xmm10
	vdivsd	%xmm13, %xmm10, %xmm10
	jmp	LBB
	.p2align	4
LBB:
	leaq	-1(%rsi), %r14
	movl	$3840, %edx
	vmovapd	368(%rsp), %xmm7
	movq	320(%rsp), %r9
	movq	%r14, %rax
	mulq	%rdx
	movq	72(%rsp), %rdx
	seto	80(%rsp)
	shlq	$4, %r14
	movq	%r14, 432(%rsp)
	shlq	$5, %rdx
	movq	%rdx, 816(%rsp)
	addq	%r9, %rdx
	leaq	(%rdx,%r14), %r9
	cmpq	%rdx, %r9
	jb	LBB
	movq	%r12, %r9
	leaq	-1(%rsi), %rdx
	shrq	$6, %r9
	movq	256(%rsp), %r14
	shll	$2, %r12d
	movq	%rdx, 400(%rsp)
	imulq	$10496, %r9, %rdx
	movzbl	%r12b, %r9d
	movq	%r9, 784(%rsp)
	leaq	(%rdx,%r9), %r12
	addq	%r12, %r14
	leaq	(%r14,%rax), %r9
	cmpq	%r14, %r9
	jb	LBB
	cmpb	$0, 80(%rsp)
	jne	LBB
	movq	616(%rsp), %r9
	leaq	(%r9,%r12), %r14
	leaq	(%r14,%rax), %r9
	cmpq	%r14, %r9
	jb	LBB
	cmpb	$0, 80(%rsp)
	jne	LBB
	movq	608(%rsp), %r9
	leaq	(%r9,%r12), %r14
	leaq	(%r14,%rax), %r9
	cmpq	%r14, %r9
	jb	LBB
	cmpb	$0, 80(%rsp)
	jne	LBB
	movq	600(%rsp), %r9
	leaq	(%r9,%r12), %r14
	leaq	(%r14,%rax), %r9
	cmpq	%r14, %r9
	jb	LBB
	cmpb	$0, 80(%rsp)
	jne	LBB
	movq	592(%rsp), %r9
	leaq	(%r9,%r12), %r14
	leaq	(%r14,%rax), %r9
	cmpq	%r14, %r9
	jb	LBB
	cmpb	$0, 80(%rsp)
	jne	LBB
	movq	584(%rsp), %r9
	leaq	(%r9,%r12), %r14
	leaq	(%r14,%rax), %r9
	cmpq	%r14, %r9
	jb	LBB
	cmpb	$0, 80(%rsp)
	jne	LBB
	addq	304(%rsp), %r12
	addq	%r12, %rax
	cmpq	%r12, %rax
	jb	LBB
	cmpb	$0, 80(%rsp)
	movabsq	$LCPI, %r12
	jne	LBB
	movq	%rdx, %r9
	movq	248(%rsp), %rax
	movq	816(%rsp), %rdx
	movq	432(%rsp), %r14
	addq	%rax, %rdx
	addq	%rdx, %r14
	cmpq	%rdx, %r14
	jb	LBB
	shrq	$60, 400(%rsp)
	movl	$0, %eax
	jne	LBB
	movq	344(%rsp), %r12
	movq	256(%rsp), %rax
	movq	784(%rsp), %r14
	shlq	$4, %r12
	addq	232(%rsp), %r12
	addq	%r14, %rax
	movq	%r9, %r14
	addq	568(%rsp), %r14
	addq	%r9, %rax
	movq	464(%rsp), %r9
	addq	784(%rsp), %r14
	movq	%rax, 1168(%rsp)
	leaq	(%r12,%rsi,8), %rax
	movq	%rax, 848(%rsp)
	leaq	16(%rdi), %rax
	addq	%rax, %r9
	movq	%r9, 752(%rsp)
	leaq	(%rax,%rbx), %r9
	movq	576(%rsp), %rax
	movq	%r9, 400(%rsp)
	movq	296(%rsp), %r9
	addq	%r13, %r9
	movq	%r9, 272(%rsp)
	leaq	16(%r8), %r9
	addq	%r9, %rbx
	addq	%r9, 464(%rsp)
	movq	192(%rsp), %r9
	movq	%rbx, 432(%rsp)
	movq	816(%rsp), %rbx
	addq	248(%rsp), %rbx
	leaq	(%rax,%r9,8), %r9
	movq	%r9, 80(%rsp)
	movq	528(%rsp), %r9
	leaq	(%rax,%r9,8), %r9
	imulq	$3840, %rsi, %rax
	movq	%r9, 192(%rsp)
	movq	%rsi, %r9
	shlq	$4, %rsi
	movq	%r9, 112(%rsp)
	addq	%rax, %r14
	addq	%rbx, %rsi
	cmpq	752(%rsp), %r12
	movq	848(%rsp), %rax
	movq	%rsi, 528(%rsp)
	movq	272(%rsp), %rsi
	setb	816(%rsp)
	cmpq	%rax, 48(%rsp)
	leaq	(%rsi,%r9,8), %r9
	movq	%r9, 880(%rsp)
	setb	784(%rsp)
	cmpq	400(%rsp), %r12
	setb	1136(%rsp)
	cmpq	%rax, 64(%rsp)
	setb	1104(%rsp)
	cmpq	%r9, %r12
	movq	56(%rsp), %r9
	setb	1072(%rsp)
	cmpq	%rax, %rsi
	movq	1168(%rsp), %rsi
	setb	1040(%rsp)
	cmpq	432(%rsp), %r12
	setb	1008(%rsp)
	cmpq	%rax, 24(%rsp)
	setb	512(%rsp)
	cmpq	464(%rsp), %r12
	setb	496(%rsp)
	cmpq	%rax, 32(%rsp)
	setb	23(%rsp)
	cmpq	80(%rsp), %r12
	setb	22(%rsp)
	cmpq	%rax, 40(%rsp)
	setb	21(%rsp)
	cmpq	192(%rsp), %r12
	setb	20(%rsp)
	cmpq	%rax, %r9
	setb	19(%rsp)
	cmpq	%r14, %r12
	setb	18(%rsp)
	cmpq	%rax, %rsi
	setb	17(%rsp)
	cmpq	528(%rsp), %r12
	movq	272(%rsp), %r12
	setb	16(%rsp)
	cmpq	%rax, %rbx
	setb	848(%rsp)
	cmpq	%r14, 48(%rsp)
	setb	15(%rsp)
	cmpq	752(%rsp), %rsi
	setb	752(%rsp)
	cmpq	%r14, 64(%rsp)
	setb	14(%rsp)
	cmpq	400(%rsp), %rsi
	setb	400(%rsp)
	cmpq	%r14, %r12
	setb	13(%rsp)
	cmpq	880(%rsp), %rsi
	setb	880(%rsp)
	cmpq	%r14, 24(%rsp)
	setb	12(%rsp)
	cmpq	432(%rsp), %rsi
	setb	432(%rsp)
	cmpq	%r14, 32(%rsp)
	setb	11(%rsp)
	cmpq	464(%rsp), %rsi
	setb	464(%rsp)
	cmpq	%r14, 40(%rsp)
	setb	10(%rsp)
	cmpq	80(%rsp), %rsi
	setb	80(%rsp)
	cmpq	%r14, %r9
	setb	9(%rsp)
	cmpq	192(%rsp), %rsi
	setb	192(%rsp)
	cmpq	528(%rsp), %rsi
	movzbl	784(%rsp), %esi
	setb	%r9b
	cmpq	%r14, %rbx
	setb	%al
	testb	%sil, 816(%rsp)
	jne	LBB
	movzbl	1104(%rsp), %esi
	andb	%sil, 1136(%rsp)
	jne	LBB
	movzbl	1040(%rsp), %esi
	movq	%r12, %rbx
	movabsq	$LCPI, %r12
	andb	%sil, 1072(%rsp)
	movq	112(%rsp), %rsi
	jne	LBB
	movzbl	512(%rsp), %r14d
	andb	%r14b, 1008(%rsp)
	jne	LBB
	movzbl	23(%rsp), %r14d
	andb	%r14b, 496(%rsp)
	jne	LBB
	movzbl	21(%rsp), %r14d
	andb	%r14b, 22(%rsp)
	jne	LBB
	movzbl	19(%rsp), %r14d
	andb	%r14b, 20(%rsp)
	jne	LBB
	movzbl	17(%rsp), %r14d
	andb	%r14b, 18(%rsp)
	jne	LBB
	movzbl	848(%rsp), %r14d
	andb	%r14b, 16(%rsp)
	jne	LBB
	movzbl	752(%rsp), %r14d
	andb	%r14b, 15(%rsp)
	jne	LBB
	movzbl	400(%rsp), %r14d
	andb	%r14b, 14(%rsp)
	jne	LBB
	movzbl	880(%rsp), %r14d
	andb	%r14b, 13(%rsp)
	jne	LBB
	movzbl	432(%rsp), %r14d
	andb	%r14b, 12(%rsp)
	jne	LBB
	movzbl	464(%rsp), %r14d
	andb	%r14b, 11(%rsp)
	jne	LBB
	movzbl	80(%rsp), %r14d
	andb	%r14b, 10(%rsp)
	jne	LBB
	movzbl	192(%rsp), %r14d
	andb	%r14b, 9(%rsp)
	jne	LBB
	andb	%al, %r9b
	movq	64(%rsp), %r9
	movl	$0, %eax
	jne	LBB
	movq	336(%rsp), %rax
	movq	%r9, %r14
	movabsq	$2305843009213693948, %r9
	vbroadcastsd	(%r8,%r10,8), %ymm1
	vbroadcastsd	(%r8,%rcx,8), %ymm0
	vmovapd	%xmm8, 512(%rsp)
	vmovaps	%xmm5, 496(%rsp)
	leaq	(%r11,%rax), %r12
	movq	%rsi, %rax
	andq	%r9, %rax
	movq	40(%rsp), %r9
	addq	560(%rsp), %r12
	vmovups	%ymm1, 464(%rsp)
	vmovups	%ymm0, 528(%rsp)
	vbroadcastsd	(%r9), %ymm2
	movq	24(%rsp), %r9
	vbroadcastsd	(%r9), %ymm1
	movq	56(%rsp), %r9
	vmovups	%ymm2, 816(%rsp)
	vbroadcastsd	(%r9), %ymm2
	movq	32(%rsp), %r9
	vmovups	%ymm1, 784(%rsp)
	vbroadcastsd	(%r9), %ymm1
	movq	48(%rsp), %r9
	vmovups	%ymm2, 432(%rsp)
	vbroadcastsd	(%rdi,%r10,8), %ymm2
	vmovups	%ymm1, 400(%rsp)
	vbroadcastsd	(%r9), %ymm1
	xorl	%r9d, %r9d
	vmovups	%ymm2, 752(%rsp)
	vbroadcastsd	(%rdi,%rcx,8), %ymm2
	vmovups	%ymm1, 1168(%rsp)
	vbroadcastsd	(%r14), %ymm1
	vmovups	%ymm2, 880(%rsp)
	vbroadcastsd	%xmm8, %ymm2
	vmovupd	%ymm2, 1136(%rsp)
	vbroadcastsd	%xmm6, %ymm2
	vmovups	%ymm2, 1072(%rsp)
	vbroadcastsd	176(%rsp), %ymm2
	vmovups	%ymm1, 848(%rsp)
	vbroadcastsd	%xmm5, %ymm1
	vmovups	%ymm1, 80(%rsp)
	vbroadcastsd	%xmm7, %ymm1
	vmovupd	%ymm1, 1104(%rsp)
	vbroadcastsd	384(%rsp), %ymm1
	vmovups	%ymm2, 1040(%rsp)
	vmovups	%ymm1, 1008(%rsp)
	.p2align	4
LBB:
	vmovupd	(%rdx), %ymm0
	vmovupd	32(%rdx), %ymm1
	vmovupd	1072(%rsp), %ymm5
	vmovupd	1008(%rsp), %ymm8
	vmovupd	1040(%rsp), %ymm12
	movabsq	$LCPI, %r14
	addq	$64, %rdx
	vperm2f128	$49, %ymm1, %ymm0, %ymm2
	vperm2f128	$32, %ymm1, %ymm0, %ymm0
	vunpckhpd	%ymm2, %ymm0, %ymm9
	vunpcklpd	%ymm2, %ymm0, %ymm1
	vsubpd	848(%rsp), %ymm1, %ymm10
	vsubpd	1168(%rsp), %ymm1, %ymm2
	vsubpd	880(%rsp), %ymm9, %ymm11
	vsubpd	752(%rsp), %ymm9, %ymm13
	vmovupd	80(%rsp), %ymm0
	vmovupd	(%rbx,%r9,8), %ymm1
	vsubpd	%ymm10, %ymm2, %ymm9
	vsubpd	%ymm11, %ymm13, %ymm14
	vmulpd	%ymm0, %ymm11, %ymm15
	vmulpd	%ymm8, %ymm10, %ymm4
	vmulpd	%ymm0, %ymm9, %ymm9
	vmulpd	%ymm5, %ymm14, %ymm14
	vaddpd	%ymm14, %ymm9, %ymm9
	vmulpd	%ymm5, %ymm10, %ymm14
	vsubpd	%ymm9, %ymm1, %ymm1
	vmovupd	1104(%rsp), %ymm9
	vsubpd	%ymm15, %ymm14, %ymm14
	vmulpd	%ymm2, %ymm5, %ymm15
	vmovupd	%ymm1, 192(%rsp)
	vmulpd	%ymm0, %ymm13, %ymm1
	vbroadcastsd	(%r14), %ymm0
	vsubpd	%ymm1, %ymm15, %ymm15
	vmulpd	%ymm14, %ymm9, %ymm1
	vmulpd	%ymm15, %ymm12, %ymm3
	vmulpd	%ymm1, %ymm14, %ymm7
	vmulpd	%ymm5, %ymm11, %ymm1
	vmulpd	%ymm5, %ymm13, %ymm14
	vmulpd	%ymm3, %ymm15, %ymm3
	vxorpd	%xmm15, %xmm15, %xmm15
	vsubpd	%ymm1, %ymm4, %ymm1
	vmulpd	%ymm2, %ymm8, %ymm4
	vmovupd	1136(%rsp), %ymm8
	vsubpd	%ymm14, %ymm4, %ymm14
	vcvtpd2ps	%ymm10, %xmm4
	vaddpd	%ymm7, %ymm8, %ymm7
	vmovss	%xmm4, -13056(%r12)
	vextractps	$1, %xmm4, -9216(%r12)
	vextractps	$2, %xmm4, -5376(%r12)
	vextractps	$3, %xmm4, -1536(%r12)
	vcvtpd2ps	%ymm11, %xmm4
	vaddpd	%ymm3, %ymm7, %ymm3
	vcmpltpd	%ymm3, %ymm15, %ymm7
	vdivpd	%ymm3, %ymm0, %ymm3
	vmovss	%xmm4, -12800(%r12)
	vextractps	$1, %xmm4, -8960(%r12)
	vextractps	$2, %xmm4, -5120(%r12)
	vextractps	$3, %xmm4, -1280(%r12)
	vmulpd	%ymm1, %ymm9, %ymm4
	vmulpd	%ymm4, %ymm1, %ymm1
	vmulpd	%ymm14, %ymm12, %ymm4
	vmulpd	%ymm4, %ymm14, %ymm4
	vaddpd	%ymm1, %ymm8, %ymm1
	vaddpd	%ymm4, %ymm1, %ymm1
	vandpd	%ymm3, %ymm7, %ymm3
	vcvtpd2ps	%ymm2, %xmm7
	vdivpd	%ymm1, %ymm0, %ymm4
	vcmpltpd	%ymm1, %ymm15, %ymm1
	vmovupd	432(%rsp), %ymm0
	vcvtpd2ps	%ymm3, %xmm3
	vmovss	%xmm7, -12544(%r12)
	vextractps	$1, %xmm7, -8704(%r12)
	vextractps	$2, %xmm7, -4864(%r12)
	vextractps	$3, %xmm7, -1024(%r12)
	vcvtpd2ps	%ymm13, %xmm7
	vmulpd	%ymm0, %ymm2, %ymm2
	vaddpd	464(%rsp), %ymm2, %ymm2
	vsubpd	528(%rsp), %ymm2, %ymm2
	vmovss	%xmm7, -12288(%r12)
	vextractps	$1, %xmm7, -8448(%r12)
	vextractps	$2, %xmm7, -4608(%r12)
	vextractps	$3, %xmm7, -768(%r12)
	vcvtpd2psy	192(%rsp), %xmm7
	vandpd	%ymm4, %ymm1, %ymm1
	vmovupd	816(%rsp), %ymm4
	vcvtpd2ps	%ymm1, %xmm1
	vmovss	%xmm7, -12032(%r12)
	vextractps	$1, %xmm7, -8192(%r12)
	vextractps	$2, %xmm7, -4352(%r12)
	vextractps	$3, %xmm7, -512(%r12)
	vmovss	%xmm3, -11776(%r12)
	vextractps	$1, %xmm3, -7936(%r12)
	vextractps	$2, %xmm3, -4096(%r12)
	vextractps	$3, %xmm3, -256(%r12)
	vmovupd	400(%rsp), %ymm3
	vmovss	%xmm1, -11520(%r12)
	vextractps	$1, %xmm1, -7680(%r12)
	vextractps	$2, %xmm1, -3840(%r12)
	vextractps	$3, %xmm1, (%r12)
	vmulpd	%ymm0, %ymm13, %ymm1
	vmulpd	%ymm4, %ymm10, %ymm0
	addq	$15360, %r12
	vsubpd	%ymm0, %ymm2, %ymm0
	vmulpd	%ymm0, %ymm5, %ymm0
	vsubpd	%ymm1, %ymm3, %ymm1
	vsubpd	784(%rsp), %ymm1, %ymm1
	vmulpd	%ymm4, %ymm11, %ymm3
	vaddpd	%ymm3, %ymm1, %ymm1
	vmulpd	80(%rsp), %ymm1, %ymm1
	vaddpd	%ymm0, %ymm1, %ymm0
	vmovupd	%ymm0, (%rbp,%r9,8)
	addq	$4, %r9
	cmpq	%r9, %rax
	jne	LBB
	vmovsd	264(%rsp), %xmm3
	vmovsd	240(%rsp), %xmm4
	vmovapd	368(%rsp), %xmm7
	vmovapd	512(%rsp), %xmm8
	vmovaps	496(%rsp), %xmm5
	movabsq	$LCPI, %r12
	cmpq	%rax, %rsi
	jne	LBB
	.p2align	4
LBB:
	vmovsd	312(%rsp), %xmm12
	movq	120(%rsp), %r14
	movq	664(%rsp), %r10
	movq	344(%rsp), %rdx
	movq	744(%rsp), %rbx
	movq	736(%rsp), %r11
	cmpq	$1, %rsi
	je	LBB
	jmp	LBB
LBB:
	xorl	%eax, %eax
	jmp	LBB
LBB:
	movq	112(%rsp), %rsi
	jmp	LBB
LBB:
	movabsq	$.const.picklebuf.dc3bba832c4c3758273d0db24b835691af3f316c, %rax
	jmp	LBB
LBB:
	movq	624(%rsp), %rax
	movq	$0, (%rax)
	xorl	%eax, %eax
	jmp	LBB
LBB:
	cmpq	%rax, 360(%rsp)
	movq	160(%rsp), %rcx
	sete	%dl
	cmpq	$2, %rcx
	setb	%sil
	orb	%dl, %sil
	je	LBB
	cmpq	$4, %rax
	jle	LBB
	testb	$3, %al
	je	LBB
	movabsq	$.const.picklebuf.1c95792ba6e9c1209ee2b340992b13c704910c42, %rax
	jmp	LBB
LBB:
	movabsq	$.const.picklebuf.908ec7c9e28c2f58d209c8d7b89f9ca105776da3, %rax
	jmp	LBB
LBB:
	imull	%ecx, %eax
	testb	$3, %al
	je	LBB
	movabsq	$.const.picklebuf.d040fcfa2fdfc0c453a66edcd43bf0707e698dae, %rax
LBB:
	movq	%rax, (%r15)
	movl	$1, %eax
LBB:
	addq	$1208, %rsp
	.cfi_def_cfa_offset 56
	popq	%rbx
	.cfi_def_cfa_offset 48
	popq	%r12
	.cfi_def_cfa_offset 40
	popq	%r13
	.cfi_def_cfa_offset 32
	popq	%r14
	.cfi_def_cfa_offset 24
	popq	%r15
	.cfi_def_cfa_offset 16
	popq	%rbp
	.cfi_def_cfa_offset 8
	vzeroupper
	retq
LBB:
	.cfi_def_cfa_offset 1264
	xorl	%r10d, %r10d
	movq	%r10, 32(%rsp)
	movq	8272(%rbx), %r10
	cmpq	%r15, %r13
	jl	LBB
LBB:
	movq	%r15, 32(%rsp)
	jmp	LBB
LBB:
	xorl	%r15d, %r15d
	movq	%r15, 24(%rsp)
	movq	8328(%rbx), %r15
	cmpq	%r10, %r13
	jl	LBB
LBB:
	movq	%r10, 24(%rsp)
	jmp	LBB
LBB:
	xorl	%r13d, %r13d
	cmpq	%r15, %r10
	jl	LBB
LBB:
	movq	%r15, %r13
	jmp	LBB
LBB:
	xorl	%r13d, %r13d
	jmp	LBB
LBB:
	movq	%r14, %r13
	jmp	LBB
LBB:
	xorl	%r14d, %r14d
	movq	9160(%rbx), %r15
	movq	%r12, %rdx
	cmpq	%r10, %rbp
	jl	LBB
LBB:
	movq	%r10, %r14
	jmp	LBB
LBB:
	xorl	%ebp, %ebp
	movq	9880(%rbx), %r10
	cmpq	%r15, %r12
	jl	LBB
LBB:
	movq	%r15, %rbp
	jmp	LBB
LBB:
	xorl	%ebx, %ebx
	imulq	%r15, %rbp
	movq	%rdi, %rdx
	cmpq	%r10, %rcx
	jl	LBB
LBB:
	movq	%r10, %rbx
	jmp	LBB
.Lfunc_end0:
	.size	SYM, .Lfunc_end0-SYM
	.cfi_endproc

	.weak	cfunc.SYM
	.p2align	4
	.type	cfunc.SYM,@function
cfunc.SYM:
	.cfi_startproc
	pushq	%r14
	.cfi_def_cfa_offset 16
	pushq	%rbx
	.cfi_def_cfa_offset 24
	subq	$88, %rsp
	.cfi_def_cfa_offset 112
	.cfi_offset %rbx, -24
	.cfi_offset %r14, -16
	movzbl	136(%rsp), %esi
	movq	112(%rsp), %rax
	movq	128(%rsp), %rcx
	movq	%rdi, %rdx
	leaq	72(%rsp), %rdi
	movq	$0, 72(%rsp)
	movq	$0, 64(%rsp)
	movq	%r9, 8(%rsp)
	andl	$1, %esi
	movq	%rax, 16(%rsp)
	movabsq	$SYM, %rax
	movq	%rcx, 32(%rsp)
	movl	%esi, 40(%rsp)
	leaq	64(%rsp), %rsi
	callq	*%rax
	vmovsd	72(%rsp), %xmm0
	movq	64(%rsp), %r14
	movl	$0, 60(%rsp)
	testl	%eax, %eax
	jne	LBB
	addq	$88, %rsp
	.cfi_def_cfa_offset 24
	popq	%rbx
	.cfi_def_cfa_offset 16
	popq	%r14
	.cfi_def_cfa_offset 8
	retq
LBB:
	.cfi_def_cfa_offset 112
	movabsq	$numba_gil_ensure, %rax
	leaq	60(%rsp), %rdi
	vmovsd	%xmm0, 80(%rsp)
	callq	*%rax
	movabsq	$PyErr_Clear, %rax
	callq	*%rax
	movl	8(%r14), %esi
	movq	(%r14), %rdi
	cmpl	$0, 32(%r14)
	jle	LBB
	movslq	%esi, %rsi
	movabsq	$PyBytes_FromStringAndSize, %rax
	callq	*%rax
	movq	16(%r14), %rdi
	movq	%rax, %rbx
	callq	*24(%r14)
	testq	%rax, %rax
	je	LBB
	movabsq	$numba_runtime_build_excinfo_struct, %rcx
	movq	%rbx, %rdi
	movq	%rax, %rsi
	callq	*%rcx
	jmp	LBB
LBB:
	movq	16(%r14), %rdx
	movabsq	$numba_unpickle, %rax
	callq	*%rax
LBB:
	testq	%rax, %rax
	je	LBB
	movabsq	$numba_do_raise, %rcx
	movq	%rax, %rdi
	callq	*%rcx
LBB:
	movabsq	$".const.<numba.core.cpu.CPUContext>", %rdi
	movabsq	$PyUnicode_FromString, %rax
	callq	*%rax
	movabsq	$PyErr_WriteUnraisable, %r14
	movq	%rax, %rbx
	movq	%rbx, %rdi
	callq	*%r14
	movabsq	$Py_DecRef, %rax
	movq	%rbx, %rdi
	callq	*%rax
	movabsq	$numba_gil_release, %rax
	leaq	60(%rsp), %rdi
	callq	*%rax
	vmovsd	80(%rsp), %xmm0
	addq	$88, %rsp
	.cfi_def_cfa_offset 24
	popq	%rbx
	.cfi_def_cfa_offset 16
	popq	%r14
	.cfi_def_cfa_offset 8
	retq
LBB:
	.cfi_def_cfa_offset 112
	movabsq	$PyExc_RuntimeError, %rdi
	movabsq	$".const.Error creating Python tuple from runtime exception arguments", %rsi
	movabsq	$PyErr_SetString, %rax
	callq	*%rax
	vxorps	%xmm0, %xmm0, %xmm0
	addq	$88, %rsp
	.cfi_def_cfa_offset 24
	popq	%rbx
	.cfi_def_cfa_offset 16
	popq	%r14
	.cfi_def_cfa_offset 8
	retq
.Lfunc_end1:
	.size	cfunc.SYM, .Lfunc_end1-cfunc.SYM
	.cfi_endproc

	.type	SYM,@object
	.comm	SYM,8,8
	.type	.const.pickledata.dc3bba832c4c3758273d0db24b835691af3f316c,@object
	.section	.lrodata,"al",@progbits
	.p2align	4, 0x0
.const.pickledata.dc3bba832c4c3758273d0db24b835691af3f316c:
	.ascii	"\200\004\225H\000\000\000\000\000\000\000\214\bbuiltins\224\214\023NotImplementedError\224\223\224\214\034incompatible shape for array\224\205\224N\207\224."
	.size	.const.pickledata.dc3bba832c4c3758273d0db24b835691af3f316c, 83

	.type	.const.pickledata.dc3bba832c4c3758273d0db24b835691af3f316c.sha1,@object
	.p2align	4, 0x0
.const.pickledata.dc3bba832c4c3758273d0db24b835691af3f316c.sha1:
	.ascii	"\334;\272\203,L7X'=\r\262K\203V\221\257?1l"
	.size	.const.pickledata.dc3bba832c4c3758273d0db24b835691af3f316c.sha1, 20

	.type	.const.picklebuf.dc3bba832c4c3758273d0db24b835691af3f316c,@object
	.p2align	4, 0x0
.const.picklebuf.dc3bba832c4c3758273d0db24b835691af3f316c:
	.quad	.const.pickledata.dc3bba832c4c3758273d0db24b835691af3f316c
	.long	83
	.zero	4
	.quad	.const.pickledata.dc3bba832c4c3758273d0db24b835691af3f316c.sha1
	.quad	0
	.long	0
	.zero	4
	.size	.const.picklebuf.dc3bba832c4c3758273d0db24b835691af3f316c, 40

	.type	".const.Error creating Python tuple from runtime exception arguments",@object
	.p2align	4, 0x0
".const.Error creating Python tuple from runtime exception arguments":
	.asciz	"Error creating Python tuple from runtime exception arguments"
	.size	".const.Error creating Python tuple from runtime exception arguments", 61

	.type	".const.<numba.core.cpu.CPUContext>",@object
	.p2align	4, 0x0
".const.<numba.core.cpu.CPUContext>":
	.asciz	"<numba.core.cpu.CPUContext>"
	.size	".const.<numba.core.cpu.CPUContext>", 28

	.type	SYM,@object
	.comm	SYM,8,8
	.type	.const.pickledata.6c409b61c28c4a45c6b4e03f3df78174881783bf,@object
	.p2align	4, 0x0
.const.pickledata.6c409b61c28c4a45c6b4e03f3df78174881783bf:
	.ascii	"\200\004\225\263\000\000\000\000\000\000\000\214\bbuiltins\224\214\nValueError\224\223\224\214)total size of new array must be unchanged\224\205\224\214\027normalize_reshape_value\224\214F/work/wt/big41/.venv/lib/python3.11/site-packages/numba/np/arrayobj.py\224M\241\t\207\224\207\224."
	.size	.const.pickledata.6c409b61c28c4a45c6b4e03f3df78174881783bf, 190

	.type	.const.pickledata.6c409b61c28c4a45c6b4e03f3df78174881783bf.sha1,@object
	.p2align	4, 0x0
.const.pickledata.6c409b61c28c4a45c6b4e03f3df78174881783bf.sha1:
	.ascii	"l@\233a\302\214JE\306\264\340?=\367\201t\210\027\203\277"
	.size	.const.pickledata.6c409b61c28c4a45c6b4e03f3df78174881783bf.sha1, 20

	.type	.const.picklebuf.6c409b61c28c4a45c6b4e03f3df78174881783bf,@object
	.p2align	4, 0x0
.const.picklebuf.6c409b61c28c4a45c6b4e03f3df78174881783bf:
	.quad	.const.pickledata.6c409b61c28c4a45c6b4e03f3df78174881783bf
	.long	190
	.zero	4
	.quad	.const.pickledata.6c409b61c28c4a45c6b4e03f3df78174881783bf.sha1
	.quad	0
	.long	0
	.zero	4
	.size	.const.picklebuf.6c409b61c28c4a45c6b4e03f3df78174881783bf, 40

	.type	.const.pickledata.be575d9b86d9dd13c0c24ed13b67ed1609906ca6,@object
	.p2align	4, 0x0
.const.pickledata.be575d9b86d9dd13c0c24ed13b67ed1609906ca6:
	.ascii	"\200\004\225\263\000\000\000\000\000\000\000\214\bbuiltins\224\214\nValueError\224\223\224\214)total size of new array must be unchanged\224\205\224\214\027normalize_reshape_value\224\214F/work/wt/big41/.venv/lib/python3.11/site-packages/numba/np/arrayobj.py\224M\254\t\207\224\207\224."
	.size	.const.pickledata.be575d9b86d9dd13c0c24ed13b67ed1609906ca6, 190

	.type	.const.pickledata.be575d9b86d9dd13c0c24ed13b67ed1609906ca6.sha1,@object
	.p2align	4, 0x0
.const.pickledata.be575d9b86d9dd13c0c24ed13b67ed1609906ca6.sha1:
	.ascii	"\276W]\233\206\331\335\023\300\302N\321;g\355\026\t\220l\246"
	.size	.const.pickledata.be575d9b86d9dd13c0c24ed13b67ed1609906ca6.sha1, 20

	.type	.const.picklebuf.be575d9b86d9dd13c0c24ed13b67ed1609906ca6,@object
	.p2align	4, 0x0
.const.picklebuf.be575d9b86d9dd13c0c24ed13b67ed1609906ca6:
	.quad	.const.pickledata.be575d9b86d9dd13c0c24ed13b67ed1609906ca6
	.long	190
	.zero	4
	.quad	.const.pickledata.be575d9b86d9dd13c0c24ed13b67ed1609906ca6.sha1
	.quad	0
	.long	0
	.zero	4
	.size	.const.picklebuf.be575d9b86d9dd13c0c24ed13b67ed1609906ca6, 40

	.type	SYM,@object
	.comm	SYM,8,8
	.type	.const.pickledata.908ec7c9e28c2f58d209c8d7b89f9ca105776da3,@object
	.p2align	4, 0x0
.const.pickledata.908ec7c9e28c2f58d209c8d7b89f9ca105776da3:
	.ascii	"\200\004\225\301\000\000\000\000\000\000\000\214\bbuiltins\224\214\nValueError\224\223\224\214JTo change to a dtype of a different size, the last axis must be contiguous\224\205\224\214\004impl\224\214F/work/wt/big41/.venv/lib/python3.11/site-packages/numba/np/arrayobj.py\224MC\f\207\224\207\224."
	.size	.const.pickledata.908ec7c9e28c2f58d209c8d7b89f9ca105776da3, 204

	.type	.const.pickledata.908ec7c9e28c2f58d209c8d7b89f9ca105776da3.sha1,@object
	.p2align	4, 0x0
.const.pickledata.908ec7c9e28c2f58d209c8d7b89f9ca105776da3.sha1:
	.ascii	"\220\216\307\311\342\214/X\322\t\310\327\270\237\234\241\005wm\243"
	.size	.const.pickledata.908ec7c9e28c2f58d209c8d7b89f9ca105776da3.sha1, 20

	.type	.const.picklebuf.908ec7c9e28c2f58d209c8d7b89f9ca105776da3,@object
	.p2align	4, 0x0
.const.picklebuf.908ec7c9e28c2f58d209c8d7b89f9ca105776da3:
	.quad	.const.pickledata.908ec7c9e28c2f58d209c8d7b89f9ca105776da3
	.long	204
	.zero	4
	.quad	.const.pickledata.908ec7c9e28c2f58d209c8d7b89f9ca105776da3.sha1
	.quad	0
	.long	0
	.zero	4
	.size	.const.picklebuf.908ec7c9e28c2f58d209c8d7b89f9ca105776da3, 40

	.type	.const.pickledata.1c95792ba6e9c1209ee2b340992b13c704910c42,@object
	.p2align	4, 0x0
.const.pickledata.1c95792ba6e9c1209ee2b340992b13c704910c42:
	.ascii	"\200\004\225\321\000\000\000\000\000\000\000\214\bbuiltins\224\214\nValueError\224\223\224\214ZWhen changing to a smaller dtype, its size must be a divisor of the size of original dtype\224\205\224\214\004impl\224\214F/work/wt/big41/.venv/lib/python3.11/site-packages/numba/np/arrayobj.py\224MI\f\207\224\207\224."
	.size	.const.pickledata.1c95792ba6e9c1209ee2b340992b13c704910c42, 220

	.type	.const.pickledata.1c95792ba6e9c1209ee2b340992b13c704910c42.sha1,@object
	.p2align	4, 0x0
.const.pickledata.1c95792ba6e9c1209ee2b340992b13c704910c42.sha1:
	.ascii	"\034\225y+\246\351\301 \236\342\263@\231+\023\307\004\221\fB"
	.size	.const.pickledata.1c95792ba6e9c1209ee2b340992b13c704910c42.sha1, 20

	.type	.const.picklebuf.1c95792ba6e9c1209ee2b340992b13c704910c42,@object
	.p2align	4, 0x0
.const.picklebuf.1c95792ba6e9c1209ee2b340992b13c704910c42:
	.quad	.const.pickledata.1c95792ba6e9c1209ee2b340992b13c704910c42
	.long	220
	.zero	4
	.quad	.const.pickledata.1c95792ba6e9c1209ee2b340992b13c704910c42.sha1
	.quad	0
	.long	0
	.zero	4
	.size	.const.picklebuf.1c95792ba6e9c1209ee2b340992b13c704910c42, 40

	.type	.const.pickledata.d040fcfa2fdfc0c453a66edcd43bf0707e698dae,@object
	.p2align	4, 0x0
.const.pickledata.d040fcfa2fdfc0c453a66edcd43bf0707e698dae:
	.ascii	"\200\004\225\354\000\000\000\000\000\000\000\214\bbuiltins\224\214\nValueError\224\223\224\214uWhen changing to a larger dtype, its size must be a divisor of the total size in bytes of the last axis of the array.\224\205\224\214\004impl\224\214F/work/wt/big41/.venv/lib/python3.11/site-packages/numba/np/arrayobj.py\224MP\f\207\224\207\224."
	.size	.const.pickledata.d040fcfa2fdfc0c453a66edcd43bf0707e698dae, 247

	.type	.const.pickledata.d040fcfa2fdfc0c453a66edcd43bf0707e698dae.sha1,@object
	.p2align	4, 0x0
.const.pickledata.d040fcfa2fdfc0c453a66edcd43bf0707e698dae.sha1:
	.ascii	"\320@\374\372/\337\300\304S\246n\334\324;\360p~i\215\256"
	.size	.const.pickledata.d040fcfa2fdfc0c453a66edcd43bf0707e698dae.sha1, 20

	.type	.const.picklebuf.d040fcfa2fdfc0c453a66edcd43bf0707e698dae,@object
	.p2align	4, 0x0
.const.picklebuf.d040fcfa2fdfc0c453a66edcd43bf0707e698dae:
	.quad	.const.pickledata.d040fcfa2fdfc0c453a66edcd43bf0707e698dae
	.long	247
	.zero	4
	.quad	.const.pickledata.d040fcfa2fdfc0c453a66edcd43bf0707e698dae.sha1
	.quad	0
	.long	0
	.zero	4
	.size	.const.picklebuf.d040fcfa2fdfc0c453a66edcd43bf0707e698dae, 40

	.type	SYM,@object
	.comm	SYM,8,8
	.section	".note.GNU-stack","",@progbits
