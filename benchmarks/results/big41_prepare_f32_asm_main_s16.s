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
	subq	$1432, %rsp
	.cfi_def_cfa_offset 1488
	.cfi_offset %rbx, -56
	.cfi_offset %r12, -48
	.cfi_offset %r13, -40
	.cfi_offset %r14, -32
	.cfi_offset %r15, -24
	.cfi_offset %rbp, -16
	movq	$0, 408(%rsp)
	movq	%rsi, %rbp
	movq	%rdx, 40(%rsp)
	movq	1504(%rsp), %rcx
	movq	1520(%rsp), %r12
	movq	%rdi, 752(%rsp)
	vmovsd	%xmm5, 288(%rsp)
	vmovsd	%xmm2, 848(%rsp)
	vmovsd	%xmm1, 840(%rsp)
	vmovsd	%xmm0, 832(%rsp)
	movq	24(%rdx), %rbx
	movq	%rcx, %rcx
	movq	8208(%rbx), %rax
	movq	8264(%rbx), %rsi
	movq	8632(%rbx), %rdx
	movq	8384(%rbx), %r14
	movq	8320(%rbx), %r15
	movq	8376(%rbx), %r13
	movq	9736(%rbx), %r10
	movq	9752(%rbx), %rdi
	movq	9760(%rbx), %r8
	movq	9768(%rbx), %r9
	movq	9776(%rbx), %r11
	movq	%rax, 152(%rsp)
	movq	%rsi, 144(%rsp)
	movq	%rdx, 136(%rsp)
	movq	9152(%rbx), %rsi
	movq	9168(%rbx), %rdx
	movq	9712(%rbx), %rax
	xorq	%r14, %rcx
	orq	%r12, %rcx
	movq	9872(%rbx), %rcx
	movq	%rsi, 48(%rsp)
	movq	%rdx, 56(%rsp)
	movq	%rax, 192(%rsp)
	movq	9720(%rbx), %rdx
	movq	9728(%rbx), %rax
	movq	9744(%rbx), %rsi
	movq	%rcx, 376(%rsp)
	je	LBB
	movq	%r10, 208(%rsp)
	movq	8216(%rbx), %r10
	movq	%r12, %rcx
	sarq	$63, %rcx
	movq	%r13, 112(%rsp)
	movq	%r15, 104(%rsp)
	movq	%rcx, %r13
	andq	%r10, %r13
	addq	%r12, %r13
	movq	%r13, %r15
	js	LBB
	movq	%r15, 32(%rsp)
	movq	8272(%rbx), %r15
	cmpq	%r10, %r13
	jge	LBB
LBB:
	movq	%rcx, %r13
	andq	%r15, %r13
	addq	%r12, %r13
	movq	%r13, %r12
	js	LBB
	movq	8328(%rbx), %r10
	cmpq	%r15, %r13
	jge	LBB
LBB:
	movq	%r12, 176(%rsp)
	movq	%rcx, %r12
	andq	%r10, %r12
	addq	1520(%rsp), %r12
	movq	%r12, %r15
	js	LBB
	cmpq	%r10, %r12
	jge	LBB
LBB:
	movq	%rcx, %r10
	andq	%r14, %r10
	addq	1520(%rsp), %r10
	movq	%rbp, 448(%rsp)
	movq	%r10, %r13
	js	LBB
	movq	8640(%rbx), %rbp
	cmpq	%r14, %r10
	jge	LBB
LBB:
	movq	%rcx, %r12
	andq	%rbp, %r12
	addq	1520(%rsp), %r12
	movq	%r12, %r14
	js	LBB
	movq	9160(%rbx), %r10
	cmpq	%rbp, %r12
	jge	LBB
LBB:
	movq	%rcx, %r12
	andq	%r10, %r12
	addq	1520(%rsp), %r12
	movq	%r12, %rbp
	js	LBB
	movq	9880(%rbx), %rbx
	cmpq	%r10, %r12
	jge	LBB
LBB:
	movq	1520(%rsp), %r12
	andq	%rbx, %rcx
	addq	%r12, %rcx
	movq	%rcx, %r10
	js	LBB
	imulq	56(%rsp), %rbp
	cmpq	%rbx, %rcx
	jge	LBB
LBB:
	movq	152(%rsp), %rcx
	movq	32(%rsp), %rbx
	addq	%r10, 376(%rsp)
	movq	208(%rsp), %r10
	leaq	(%rcx,%rbx,8), %rcx
	movq	176(%rsp), %rbx
	movq	%rcx, 152(%rsp)
	movq	144(%rsp), %rcx
	leaq	(%rcx,%rbx,8), %rcx
	movq	48(%rsp), %rbx
	movq	%rcx, 144(%rsp)
	movq	104(%rsp), %rcx
	leaq	(%rcx,%r15,8), %r15
	movq	112(%rsp), %rcx
	leaq	(%rcx,%r13,8), %r13
	movq	136(%rsp), %rcx
	leaq	(%rcx,%r14,8), %rcx
	movq	%rcx, 136(%rsp)
	leaq	(%rbx,%rbp,8), %rcx
	movq	448(%rsp), %rbp
	movq	%rcx, 48(%rsp)
LBB:
	movq	192(%rsp), %rcx
	movq	%rax, 160(%rsp)
	movq	%rcx, 1208(%rsp)
	movq	%rdx, 1216(%rsp)
	movq	%rax, 1224(%rsp)
	movq	%r10, 1232(%rsp)
	movq	%rsi, 1240(%rsp)
	movq	%rdi, 1248(%rsp)
	movq	%r8, 1256(%rsp)
	movq	%r9, 1264(%rsp)
	movq	%r11, 1272(%rsp)
	testq	%rax, %rax
	movl	$1, %ecx
	cmovnsq	%rax, %rcx
	js	LBB
	movabsq	$LCPI, %rsi
	vmovq	%rax, %xmm0
	movabsq	$LCPI, %rdx
	vpunpckldq	(%rsi), %xmm0, %xmm0
	vsubpd	(%rdx), %xmm0, %xmm0
	vshufpd	$1, %xmm0, %xmm0, %xmm1
	vaddsd	%xmm0, %xmm1, %xmm0
	vcvtsi2sd	%rcx, %xmm15, %xmm1
	vucomisd	%xmm1, %xmm0
	jne	LBB
	jnp	LBB
LBB:
	movabsq	$.const.picklebuf.5250416fd31e1cb2b53aca246b402bd9059ce7f1, %rax
	jmp	LBB
LBB:
	movq	%rcx, %rdx
	orq	%rax, %rdx
	shrq	$32, %rdx
	testq	%rdx, %rdx
	jne	LBB
	movb	$1, %al
	testb	%al, %al
	jne	LBB
	movabsq	$.const.picklebuf.fc34748e6df577f1566f4b87b983b5e4c179b16d, %rax
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
	vmovsd	%xmm3, 336(%rsp)
	vmovsd	%xmm4, 280(%rsp)
	leaq	1248(%rsp), %rsi
	leaq	1264(%rsp), %rdx
	movabsq	$numba_attempt_nocopy_reshape, %rax
	leaq	160(%rsp), %r8
	leaq	408(%rsp), %r9
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
	vmovsd	288(%rsp), %xmm3
	vmovsd	280(%rsp), %xmm4
	vmovsd	336(%rsp), %xmm12
	movq	1240(%rsp), %rcx
	movq	1232(%rsp), %rax
	movq	%rcx, 352(%rsp)
	cmpq	$4, %rax
	jne	LBB
LBB:
	cmpq	$0, 1504(%rsp)
	movq	%r13, 112(%rsp)
	jle	LBB
	movq	40(%rsp), %rax
	shlq	$3, 56(%rsp)
	movq	%r12, 400(%rsp)
	movq	%r15, 104(%rsp)
	movq	24(%rax), %rax
	movq	7392(%rax), %rsi
	movq	7344(%rax), %rdx
	movq	7920(%rax), %r8
	movq	7776(%rax), %rdi
	movq	7336(%rax), %rcx
	movq	480(%rax), %r11
	movq	552(%rax), %r14
	movq	7688(%rax), %r13
	movq	7712(%rax), %r10
	movq	472(%rax), %r9
	movq	544(%rax), %rbx
	movq	%rsi, 1064(%rsp)
	movq	7448(%rax), %rsi
	movq	%rdx, 1072(%rsp)
	movq	7400(%rax), %rdx
	movq	%r8, 312(%rsp)
	movq	7928(%rax), %r8
	movq	%rdi, 328(%rsp)
	movq	7784(%rax), %rdi
	movq	%rcx, 1080(%rsp)
	movabsq	$LCPI, %rcx
	movq	%r11, 912(%rsp)
	movq	488(%rax), %r11
	movq	%r14, 888(%rsp)
	movq	560(%rax), %r14
	movq	%r9, 920(%rsp)
	movq	%r13, 736(%rsp)
	movq	%rbx, 896(%rsp)
	movq	%r10, 792(%rsp)
	vmovapd	(%rcx), %xmm1
	movq	616(%rax), %rcx
	movq	%rsi, 1048(%rsp)
	movq	7504(%rax), %rsi
	movq	%rdx, 1056(%rsp)
	movq	7456(%rax), %rdx
	movq	%r8, 824(%rsp)
	movq	7936(%rax), %r8
	movq	%rdi, 936(%rsp)
	movq	7792(%rax), %rdi
	movq	%r11, 904(%rsp)
	movq	%r14, 880(%rsp)
	movq	%rcx, 872(%rsp)
	leaq	8(%rcx), %rcx
	movq	%rcx, 680(%rsp)
	vmovapd	%xmm1, 1280(%rsp)
	movq	%rsi, 1032(%rsp)
	movq	7560(%rax), %rsi
	movq	%rdx, 1040(%rsp)
	movq	7512(%rax), %rdx
	movq	%r8, 816(%rsp)
	movq	7992(%rax), %r8
	movq	%rdi, 928(%rsp)
	movq	%rsi, 1016(%rsp)
	movq	7616(%rax), %rsi
	movq	%rdx, 1024(%rsp)
	movq	7568(%rax), %rdx
	movq	%r8, 304(%rsp)
	movq	8000(%rax), %r8
	movq	%rsi, 1000(%rsp)
	movq	7632(%rax), %rsi
	movq	%rdx, 1008(%rsp)
	movq	7624(%rax), %rdx
	movq	%r8, 808(%rsp)
	movq	8008(%rax), %r8
	movq	%rsi, 984(%rsp)
	movq	152(%rax), %rsi
	movq	%rdx, 992(%rsp)
	movabsq	$LCPI, %rdx
	movq	%r8, 800(%rsp)
	movq	144(%rax), %r8
	vmovss	(%rdx), %xmm0
	movq	7696(%rax), %rdx
	movq	%rsi, 384(%rsp)
	movq	624(%rax), %rsi
	movq	%r8, 392(%rsp)
	movq	%rdx, 944(%rsp)
	movq	7704(%rax), %rdx
	vmovss	%xmm0, 172(%rsp)
	movq	%rsi, 864(%rsp)
	movq	856(%rax), %rsi
	movq	%rdx, 856(%rsp)
	leaq	(,%rdx,8), %rdx
	movq	%rdx, 728(%rsp)
	leaq	8(%r13), %rdx
	movq	%rdx, 320(%rsp)
	leaq	16(%r9), %rdx
	leaq	(,%r10,8), %r9
	movq	%rsi, 976(%rsp)
	movq	864(%rax), %rsi
	movq	%rdx, 720(%rsp)
	leaq	(,%r11,8), %rdx
	movq	%r9, 8(%rsp)
	movq	%rdx, 712(%rsp)
	leaq	(,%rdi,8), %rdx
	movq	%rdx, 704(%rsp)
	leaq	(,%r14,8), %rdx
	movq	%rsi, 968(%rsp)
	movq	968(%rax), %rsi
	movq	976(%rax), %rax
	movq	%rdx, 696(%rsp)
	leaq	16(%rbx), %rdx
	xorl	%ebx, %ebx
	movq	%rdx, 688(%rsp)
	movq	%rax, 952(%rsp)
	movq	352(%rsp), %rax
	movq	%rsi, 960(%rsp)
	leaq	3072(%rax), %rbp
	leaq	3328(%rax), %r8
	leaq	2816(%rax), %rsi
	leaq	516(%rax), %rcx
	movq	%rbp, 784(%rsp)
	leaq	3584(%rax), %rbp
	movq	%r8, 776(%rsp)
	leaq	3840(%rax), %r8
	movq	%rsi, 296(%rsp)
	movq	%rcx, 672(%rsp)
	movq	%rbp, 768(%rsp)
	leaq	4096(%rax), %rbp
	movq	%r8, 760(%rsp)
	leaq	4352(%rax), %r8
	addq	$15872, %rax
	movq	%rbp, 744(%rsp)
	movq	48(%rsp), %rbp
	movq	%r8, 344(%rsp)
	movq	%rax, 664(%rsp)
	jmp	LBB
	.p2align	4
LBB:
	movl	$0, 4608(%r8,%rsi,4)
	movl	$0, 4864(%r8,%rsi,4)
	movl	$0, 5120(%r8,%rsi,4)
	movl	$0, 5376(%r8,%rsi,4)
	movl	$0, 5632(%r8,%rsi,4)
	movl	$0, 8448(%r8,%rsi,4)
	movl	$0, 8704(%r8,%rsi,4)
	movl	$0, 8960(%r8,%rsi,4)
	movl	$0, 9216(%r8,%rsi,4)
	movl	$0, 9472(%r8,%rsi,4)
LBB:
	movl	$0, 6656(%r8,%rsi,4)
	movl	$0, 6912(%r8,%rsi,4)
	movl	$0, 7168(%r8,%rsi,4)
	movl	$0, 7424(%r8,%rsi,4)
	movl	$0, 7680(%r8,%rsi,4)
	movl	$0, 7936(%r8,%rsi,4)
	movl	$0, 8192(%r8,%rsi,4)
LBB:
	incq	400(%rsp)
	addq	56(%rsp), %rbp
	movq	104(%rsp), %r15
	incq	%rbx
	cmpq	1504(%rsp), %rbx
	je	LBB
LBB:
	movq	1496(%rsp), %rax
	movq	1016(%rsp), %rdx
	movq	1080(%rsp), %r9
	movq	%r12, %r8
	vmovaps	%xmm12, %xmm0
	vmovaps	%xmm4, %xmm1
	vmovaps	%xmm3, %xmm2
	movq	(%rax,%rbx,8), %rax
	movq	%rax, %rdi
	sarq	$63, %rdi
	leaq	(%rdx,%rax,8), %rdx
	movq	%rdi, %rcx
	andq	1008(%rsp), %rcx
	movq	%rdi, %r13
	movq	(%rdx,%rcx,8), %rsi
	movq	%rdi, %rcx
	andq	1072(%rsp), %rcx
	leaq	(%r9,%rax,8), %rdx
	movq	(%rdx,%rcx,8), %r14
	movq	%rdi, %rcx
	movq	1064(%rsp), %rdi
	andq	1056(%rsp), %rcx
	movq	%rsi, 32(%rsp)
	leaq	(%rdi,%rax,8), %rdx
	movq	%r14, %r11
	sarq	$63, %r11
	movq	%r14, 208(%rsp)
	movq	(%rdx,%rcx,8), %rdi
	movq	152(%rsp), %rcx
	movq	392(%rsp), %rdx
	movq	%rax, (%rcx,%rbx,8)
	movq	144(%rsp), %rcx
	leaq	(%rdx,%r14,8), %rdx
	movq	%rdi, %r12
	sarq	$63, %r12
	movq	%r14, (%rcx,%rbx,8)
	movq	112(%rsp), %rcx
	movq	%rdi, (%r15,%rbx,8)
	movq	%rsi, (%rcx,%rbx,8)
	movq	376(%rsp), %rcx
	movb	$1, (%rcx,%rbx)
	movq	%r11, %rcx
	andq	384(%rsp), %rcx
	cmpq	$2, (%rdx,%rcx,8)
	jne	LBB
	movq	392(%rsp), %rdx
	movq	%r12, %rcx
	andq	384(%rsp), %rcx
	vmovaps	%xmm12, %xmm0
	vmovaps	%xmm4, %xmm1
	vmovaps	%xmm3, %xmm2
	leaq	(%rdx,%rdi,8), %rdx
	cmpq	$2, (%rdx,%rcx,8)
	jne	LBB
	vmovsd	832(%rsp), %xmm0
	vmovsd	840(%rsp), %xmm1
	vmovsd	848(%rsp), %xmm2
LBB:
	movq	976(%rsp), %rsi
	movq	208(%rsp), %r10
	movq	968(%rsp), %r15
	movq	960(%rsp), %r9
	movq	952(%rsp), %r14
	movq	%r11, %rcx
	movq	%r12, 240(%rsp)
	vmovss	172(%rsp), %xmm7
	movq	%rdi, 416(%rsp)
	leaq	(%rsi,%r10,8), %rdx
	andq	%r15, %rcx
	leaq	(%rsi,%rdi,8), %rsi
	vmovsd	(%rdx,%rcx,8), %xmm8
	movq	%r12, %rcx
	andq	%r15, %rcx
	leaq	(%r9,%r10,8), %rdx
	andq	%r14, %r12
	movq	%r11, %r15
	vmovsd	(%rsi,%rcx,8), %xmm9
	movq	%r11, %rcx
	andq	%r14, %rcx
	vmovsd	(%rdx,%rcx,8), %xmm5
	leaq	(%r9,%rdi,8), %rdx
	movq	32(%rsp), %rdi
	vmovaps	%xmm5, 176(%rsp)
	vmovsd	(%rdx,%r12,8), %xmm5
	vmovaps	%xmm5, 192(%rsp)
	cmpq	$2, %rdi
	je	LBB
	vxorpd	%xmm7, %xmm7, %xmm7
LBB:
	movq	1048(%rsp), %rsi
	movq	%r13, %rcx
	andq	1040(%rsp), %rcx
	movq	%r13, %rdx
	andq	1024(%rsp), %rdx
	leaq	(%r8,%rbx), %r11
	movq	%r8, %r12
	movq	1000(%rsp), %r9
	vcvtsd2ss	%xmm8, %xmm8, %xmm11
	movq	%r13, %r10
	leaq	(%rsi,%rax,8), %rsi
	vmovsd	(%rsi,%rcx,8), %xmm10
	movq	1032(%rsp), %rsi
	movq	%r13, %rcx
	andq	992(%rsp), %rcx
	leaq	(%rsi,%rax,8), %rsi
	addq	%rax, %rcx
	imulq	984(%rsp), %rcx
	vmovsd	(%rsi,%rdx,8), %xmm5
	movabsq	$4611686018427387840, %rsi
	movq	%r11, %rdx
	andq	%rsi, %rdx
	movl	%r11d, %esi
	andl	$63, %esi
	vcvtsd2ss	%xmm10, %xmm10, %xmm10
	imulq	$164, %rdx, %r8
	movq	136(%rsp), %rdx
	addq	352(%rsp), %r8
	cmpb	$0, 1528(%rsp)
	vmovsd	%xmm5, (%rdx,%rbx,8)
	vmovsd	(%r9,%rcx,8), %xmm5
	vmovsd	8(%r9,%rcx,8), %xmm6
	movl	%esi, %ecx
	vmovss	%xmm11, (%r8,%rcx,4)
	vmovaps	176(%rsp), %xmm11
	vcvtsd2ss	%xmm11, %xmm11, %xmm11
	vcvtsd2ss	%xmm5, %xmm5, %xmm14
	vcvtsd2ss	%xmm6, %xmm6, %xmm13
	vmovss	%xmm11, 256(%r8,%rcx,4)
	vcvtsd2ss	%xmm9, %xmm9, %xmm11
	vmovss	%xmm11, 512(%r8,%rcx,4)
	vmovaps	192(%rsp), %xmm11
	vcvtsd2ss	%xmm11, %xmm11, %xmm11
	vcvtsd2ss	%xmm0, %xmm0, %xmm0
	vmovss	%xmm11, 768(%r8,%rcx,4)
	vmovss	%xmm14, 1024(%r8,%rcx,4)
	vmovss	%xmm13, 1280(%r8,%rcx,4)
	vmovss	%xmm10, 1536(%r8,%rcx,4)
	vmovss	%xmm0, 1792(%r8,%rcx,4)
	vcvtsd2ss	%xmm1, %xmm1, %xmm0
	vmovss	%xmm0, 2048(%r8,%rcx,4)
	vcvtsd2ss	%xmm2, %xmm2, %xmm0
	vmovss	%xmm0, 2304(%r8,%rcx,4)
	vmovss	%xmm7, 2560(%r8,%rcx,4)
	je	LBB
	testq	%rdi, %rdi
	jle	LBB
	movq	%r10, %rcx
	andq	824(%rsp), %rcx
	movq	%r10, %rdx
	andq	808(%rsp), %rdx
	movq	%rsi, %r12
	movq	312(%rsp), %rsi
	movq	304(%rsp), %r9
	addq	%rax, %rcx
	imulq	816(%rsp), %rcx
	addq	%rax, %rdx
	imulq	800(%rsp), %rdx
	vmovsd	(%rsi,%rcx,8), %xmm0
	vmovsd	(%r9,%rdx,8), %xmm1
	movq	%r12, %rsi
	vcvtsd2ss	%xmm0, %xmm0, %xmm0
	vcvtsd2ss	%xmm1, %xmm1, %xmm1
	vmovss	%xmm0, 4608(%r8,%r12,4)
	vxorps	%xmm0, %xmm0, %xmm0
	vmovss	%xmm1, 4864(%r8,%r12,4)
	movl	$0, 5120(%r8,%r12,4)
	movl	$0, 5376(%r8,%r12,4)
	movl	$0, 5632(%r8,%r12,4)
	vxorps	%xmm1, %xmm1, %xmm1
	cmpq	$1, %rdi
	je	LBB
	movq	312(%rsp), %rsi
	movq	304(%rsp), %rdi
	vmovsd	8(%rsi,%rcx,8), %xmm0
	vmovsd	8(%rdi,%rdx,8), %xmm1
	movq	%r12, %rsi
	vcvtsd2ss	%xmm0, %xmm0, %xmm0
	vcvtsd2ss	%xmm1, %xmm1, %xmm1
LBB:
	vmovapd	176(%rsp), %xmm7
	vmovss	%xmm0, 8448(%r8,%rsi,4)
	vmovss	%xmm1, 8704(%r8,%rsi,4)
	movl	$0, 8960(%r8,%rsi,4)
	movl	$0, 9216(%r8,%rsi,4)
	movl	$0, 9472(%r8,%rsi,4)
	jmp	LBB
	.p2align	4
LBB:
	vmovapd	176(%rsp), %xmm7
	movl	$0, 4608(%r8,%rsi,4)
	movl	$0, 4864(%r8,%rsi,4)
	movl	$0, 5120(%r8,%rsi,4)
	movl	$0, 5376(%r8,%rsi,4)
	movl	$0, 5632(%r8,%rsi,4)
	movl	$0, 8448(%r8,%rsi,4)
	movl	$0, 8704(%r8,%rsi,4)
	movl	$0, 8960(%r8,%rsi,4)
	movl	$0, 9216(%r8,%rsi,4)
	movl	$0, 9472(%r8,%rsi,4)
	testq	%rdi, %rdi
	jle	LBB
LBB:
	movq	400(%rsp), %r13
	movq	%r8, 1088(%rsp)
	movq	%r10, %r8
	andq	936(%rsp), %r8
	movq	%rbx, 368(%rsp)
	movq	%r10, %rbx
	andq	944(%rsp), %rbx
	movq	240(%rsp), %r10
	movq	912(%rsp), %rdx
	movq	%r11, 496(%rsp)
	movq	208(%rsp), %r11
	movq	416(%rsp), %r14
	movq	904(%rsp), %rdi
	movq	%rsi, 1096(%rsp)
	movq	920(%rsp), %rsi
	movq	880(%rsp), %r12
	movq	%rbp, 40(%rsp)
	movq	872(%rsp), %rbp
	vxorps	1280(%rsp), %xmm5, %xmm0
	vaddsd	%xmm9, %xmm8, %xmm8
	movq	%r13, %rcx
	shrq	$6, %rcx
	addq	%rax, %r8
	movq	%r10, %r9
	andq	%rdx, %r9
	addq	%rax, %rbx
	andl	$63, %r13d
	imulq	$10496, %rcx, %rcx
	movq	%r8, %rax
	imulq	928(%rsp), %rax
	addq	%r14, %r9
	movq	%r8, 1168(%rsp)
	shll	$2, %r13d
	movq	%r9, 528(%rsp)
	vmovaps	%xmm0, 448(%rsp)
	movq	%rcx, 360(%rsp)
	movq	%r15, %rcx
	andq	%rdx, %rcx
	movq	%r9, %rdx
	imulq	%rdi, %rdx
	movq	864(%rsp), %r9
	addq	%r11, %rcx
	movq	%rcx, 592(%rsp)
	imulq	%rdi, %rcx
	movq	328(%rsp), %rdi
	leaq	(%rsi,%rcx,8), %rcx
	leaq	(%rsi,%rdx,8), %rsi
	movq	896(%rsp), %rdx
	leaq	(%rdi,%rax,8), %rax
	movq	888(%rsp), %rdi
	movq	%rax, 120(%rsp)
	movq	%r10, %rax
	andq	%r9, %r10
	movq	%r10, 240(%rsp)
	andq	%rdi, %rax
	addq	%r14, %rax
	movq	%rax, 560(%rsp)
	imulq	%r12, %rax
	leaq	(%rdx,%rax,8), %r8
	leaq	(%rbp,%r14,8), %rax
	movq	%r15, %r14
	andq	%rdi, %r14
	andq	%r9, %r15
	addq	%r11, %r14
	movq	%r15, 464(%rsp)
	leaq	(%rax,%r10,8), %rax
	movq	%rax, 128(%rsp)
	movq	%r14, %rax
	imulq	%r12, %rax
	leaq	(%rdx,%rax,8), %rdi
	movq	32(%rsp), %rax
	leaq	(%rbp,%r11,8), %rdx
	leaq	(%rdx,%r15,8), %r15
	cmpq	$12, %rax
	jae	LBB
	movq	8(%rsp), %r9
	movq	128(%rsp), %r12
	movq	120(%rsp), %r10
LBB:
	xorl	%edx, %edx
LBB:
	imulq	856(%rsp), %rbx
	movq	360(%rsp), %r11
	addq	344(%rsp), %r13
	imulq	$3840, %rdx, %rax
	addq	%rax, %r11
	movabsq	$LCPI, %rax
	addq	%r11, %r13
	addq	%rdx, %rbx
	imulq	%r9, %rbx
	addq	320(%rsp), %rbx
	jmp	LBB
	.p2align	4
LBB:
	vcvtsd2ss	%xmm0, %xmm0, %xmm13
	vcvtsd2ss	%xmm2, %xmm2, %xmm14
	vcvtsd2ss	%xmm1, %xmm1, %xmm15
	vcvtsd2ss	%xmm12, %xmm12, %xmm12
	vcvtsd2ss	%xmm11, %xmm11, %xmm11
	vcvtsd2ss	%xmm10, %xmm10, %xmm10
	addq	%r9, %rbx
	vmovss	%xmm13, -1536(%r13)
	vmovss	%xmm14, -1280(%r13)
	vcvtsd2ss	%xmm9, %xmm9, %xmm14
	vmovss	%xmm15, -1024(%r13)
	vmovss	%xmm14, -768(%r13)
	vmovss	%xmm12, -512(%r13)
	vmovss	%xmm11, -256(%r13)
	vmovss	%xmm10, (%r13)
	addq	$3840, %r13
	vmovsd	(%r12), %xmm11
	vmovsd	(%r8), %xmm10
	vmovsd	(%r15), %xmm12
	vmulsd	%xmm11, %xmm9, %xmm9
	vmulsd	%xmm1, %xmm11, %xmm1
	vaddsd	8(%r8), %xmm1, %xmm1
	vmulsd	%xmm2, %xmm12, %xmm2
	vmulsd	%xmm0, %xmm12, %xmm0
	vsubsd	%xmm9, %xmm10, %xmm9
	vsubsd	(%rdi), %xmm9, %xmm9
	vsubsd	8(%rdi), %xmm1, %xmm1
	vsubsd	%xmm0, %xmm1, %xmm0
	vaddsd	%xmm2, %xmm9, %xmm2
	vmulsd	%xmm2, %xmm5, %xmm1
	vmulsd	%xmm0, %xmm6, %xmm0
	vaddsd	%xmm0, %xmm1, %xmm0
	vmovsd	%xmm0, (%r11,%rdx,8)
	incq	%rdx
	cmpq	%rdx, 32(%rsp)
	je	LBB
LBB:
	vmovsd	-8(%rbx), %xmm1
	vmovsd	(%rbx), %xmm9
	vsubsd	(%rcx), %xmm1, %xmm0
	vsubsd	8(%rcx), %xmm9, %xmm2
	vsubsd	8(%rsi), %xmm9, %xmm9
	vsubsd	(%rsi), %xmm1, %xmm1
	vmulsd	%xmm0, %xmm6, %xmm10
	vmulsd	%xmm2, %xmm5, %xmm11
	vmulsd	%xmm5, %xmm9, %xmm12
	vsubsd	%xmm11, %xmm10, %xmm10
	vmulsd	%xmm1, %xmm6, %xmm11
	vsubsd	%xmm12, %xmm11, %xmm11
	vmulsd	%xmm7, %xmm10, %xmm12
	vmulsd	%xmm12, %xmm10, %xmm10
	vmulsd	192(%rsp), %xmm11, %xmm12
	vaddsd	%xmm10, %xmm8, %xmm10
	vmulsd	%xmm12, %xmm11, %xmm11
	vaddsd	%xmm11, %xmm10, %xmm12
	vxorpd	%xmm10, %xmm10, %xmm10
	vxorpd	%xmm11, %xmm11, %xmm11
	vucomisd	%xmm10, %xmm12
	jbe	LBB
	vmovsd	(%rax), %xmm11
	vdivsd	%xmm12, %xmm11, %xmm11
LBB:
	vsubsd	%xmm0, %xmm1, %xmm13
	vsubsd	%xmm2, %xmm9, %xmm14
	vmovsd	(%r10,%rdx,8), %xmm12
	vmovapd	448(%rsp), %xmm15
	movq	40(%rsp), %r11
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
	vmulsd	192(%rsp), %xmm14, %xmm15
	vaddsd	%xmm13, %xmm8, %xmm13
	vmulsd	%xmm15, %xmm14, %xmm14
	vaddsd	%xmm14, %xmm13, %xmm13
	vucomisd	%xmm10, %xmm13
	jbe	LBB
	vmovsd	(%rax), %xmm10
	vdivsd	%xmm13, %xmm10, %xmm10
	jmp	LBB
	.p2align	4
LBB:
	decq	%rax
	movl	$3840, %edx
	movq	128(%rsp), %r12
	movq	120(%rsp), %r10
	mulq	%rdx
	seto	64(%rsp)
	cmpq	$1, 792(%rsp)
	jne	LBB
	movq	496(%rsp), %r9
	movq	296(%rsp), %rbp
	movq	%r9, %rdx
	shrq	$6, %rdx
	shll	$2, %r9d
	imulq	$10496, %rdx, %r11
	movzbl	%r9b, %edx
	movq	%rdx, 496(%rsp)
	addq	%r11, %rdx
	leaq	(%rbp,%rdx), %r9
	leaq	(%r9,%rax), %rbp
	cmpq	%r9, %rbp
	jb	LBB
	cmpb	$0, 64(%rsp)
	jne	LBB
	movq	784(%rsp), %r9
	addq	%rdx, %r9
	leaq	(%r9,%rax), %rbp
	cmpq	%r9, %rbp
	jb	LBB
	cmpb	$0, 64(%rsp)
	jne	LBB
	movq	776(%rsp), %r9
	addq	%rdx, %r9
	leaq	(%r9,%rax), %rbp
	cmpq	%r9, %rbp
	jb	LBB
	cmpb	$0, 64(%rsp)
	jne	LBB
	movq	768(%rsp), %r9
	addq	%rdx, %r9
	leaq	(%r9,%rax), %rbp
	cmpq	%r9, %rbp
	jb	LBB
	cmpb	$0, 64(%rsp)
	jne	LBB
	movq	760(%rsp), %r9
	addq	%rdx, %r9
	leaq	(%r9,%rax), %rbp
	cmpq	%r9, %rbp
	jb	LBB
	cmpb	$0, 64(%rsp)
	jne	LBB
	movq	744(%rsp), %r9
	addq	%rdx, %r9
	leaq	(%r9,%rax), %rbp
	cmpq	%r9, %rbp
	jb	LBB
	cmpb	$0, 64(%rsp)
	movq	8(%rsp), %r9
	jne	LBB
	addq	344(%rsp), %rdx
	addq	%rdx, %rax
	cmpq	%rdx, %rax
	jb	LBB
	cmpb	$0, 64(%rsp)
	movl	$0, %edx
	jne	LBB
	movq	296(%rsp), %rax
	movq	496(%rsp), %rdx
	movq	%r14, 64(%rsp)
	movq	728(%rsp), %r14
	movq	32(%rsp), %r10
	movq	736(%rsp), %rbp
	movq	464(%rsp), %r12
	addq	208(%rsp), %r12
	addq	%rdx, %rax
	movq	56(%rsp), %rdx
	imulq	%rbx, %r14
	imulq	368(%rsp), %rdx
	addq	%r11, %rax
	addq	672(%rsp), %r11
	movq	%rax, 1392(%rsp)
	movq	528(%rsp), %rax
	addq	496(%rsp), %r11
	addq	48(%rsp), %rdx
	leaq	(%rdx,%r10,8), %r9
	movq	%r9, 1136(%rsp)
	leaq	(%rbp,%r14), %r9
	addq	320(%rsp), %r14
	movq	%r9, 464(%rsp)
	movq	240(%rsp), %r9
	addq	416(%rsp), %r9
	leaq	(%r14,%r10,8), %rbp
	movq	%rbp, 1104(%rsp)
	movq	712(%rsp), %rbp
	movq	%r9, 240(%rsp)
	movq	720(%rsp), %r9
	imulq	%rbp, %rax
	addq	%r9, %rax
	movq	%rax, 528(%rsp)
	movq	592(%rsp), %rax
	imulq	%rbp, %rax
	movq	688(%rsp), %rbp
	addq	%r9, %rax
	movq	696(%rsp), %r9
	movq	%rax, 592(%rsp)
	movq	1168(%rsp), %rax
	imulq	704(%rsp), %rax
	addq	328(%rsp), %rax
	leaq	(%rax,%r10,8), %rax
	movq	560(%rsp), %r10
	movq	%rax, 416(%rsp)
	movq	64(%rsp), %rax
	imulq	%r9, %r10
	imulq	%r9, %rax
	movq	680(%rsp), %r9
	addq	%rbp, %r10
	movq	%r10, 560(%rsp)
	movq	120(%rsp), %r10
	addq	%rbp, %rax
	imulq	$3840, 32(%rsp), %rbp
	movq	%rax, 64(%rsp)
	leaq	(%r9,%r12,8), %rax
	movq	128(%rsp), %r12
	movq	%rax, 208(%rsp)
	movq	240(%rsp), %rax
	addq	%rbp, %r11
	cmpq	1104(%rsp), %rdx
	movq	1136(%rsp), %rbp
	leaq	(%r9,%rax,8), %r9
	movq	%r9, 1168(%rsp)
	setb	240(%rsp)
	cmpq	%rbp, 464(%rsp)
	setb	496(%rsp)
	cmpq	528(%rsp), %rdx
	setb	1360(%rsp)
	cmpq	%rbp, %rsi
	setb	1328(%rsp)
	cmpq	592(%rsp), %rdx
	setb	1296(%rsp)
	cmpq	%rbp, %rcx
	setb	640(%rsp)
	cmpq	416(%rsp), %rdx
	setb	624(%rsp)
	cmpq	%rbp, %r10
	setb	31(%rsp)
	cmpq	64(%rsp), %rdx
	setb	30(%rsp)
	cmpq	%rbp, %rdi
	setb	29(%rsp)
	cmpq	560(%rsp), %rdx
	setb	28(%rsp)
	cmpq	%rbp, %r8
	setb	27(%rsp)
	cmpq	208(%rsp), %rdx
	setb	26(%rsp)
	cmpq	%rbp, %r15
	setb	25(%rsp)
	cmpq	%r9, %rdx
	movq	1392(%rsp), %r9
	setb	24(%rsp)
	cmpq	%rbp, %r12
	setb	23(%rsp)
	cmpq	%r11, %rdx
	setb	%al
	cmpq	%rbp, %r9
	setb	1136(%rsp)
	cmpq	%r11, 464(%rsp)
	setb	%dl
	cmpq	1104(%rsp), %r9
	setb	464(%rsp)
	cmpq	%r11, %rsi
	setb	%bpl
	cmpq	528(%rsp), %r9
	setb	528(%rsp)
	cmpq	%r11, %rcx
	setb	1104(%rsp)
	cmpq	592(%rsp), %r9
	setb	592(%rsp)
	cmpq	%r11, %r10
	setb	22(%rsp)
	cmpq	416(%rsp), %r9
	setb	416(%rsp)
	cmpq	%r11, %rdi
	setb	21(%rsp)
	cmpq	64(%rsp), %r9
	setb	64(%rsp)
	cmpq	%r11, %r8
	setb	20(%rsp)
	cmpq	560(%rsp), %r9
	setb	560(%rsp)
	cmpq	%r11, %r15
	setb	19(%rsp)
	cmpq	208(%rsp), %r9
	setb	208(%rsp)
	cmpq	%r11, %r12
	setb	18(%rsp)
	cmpq	1168(%rsp), %r9
	movzbl	496(%rsp), %r9d
	setb	%r11b
	testb	%r9b, 240(%rsp)
	jne	LBB
	movzbl	1328(%rsp), %r9d
	andb	%r9b, 1360(%rsp)
	jne	LBB
	movzbl	640(%rsp), %r9d
	movb	%r11b, 240(%rsp)
	andb	%r9b, 1296(%rsp)
	movq	8(%rsp), %r9
	jne	LBB
	movzbl	31(%rsp), %r11d
	andb	%r11b, 624(%rsp)
	jne	LBB
	movzbl	29(%rsp), %r11d
	andb	%r11b, 30(%rsp)
	jne	LBB
	movzbl	27(%rsp), %r11d
	andb	%r11b, 28(%rsp)
	jne	LBB
	movzbl	25(%rsp), %r11d
	andb	%r11b, 26(%rsp)
	jne	LBB
	movzbl	23(%rsp), %r11d
	andb	%r11b, 24(%rsp)
	jne	LBB
	andb	1136(%rsp), %al
	jne	LBB
	andb	464(%rsp), %dl
	jne	LBB
	andb	528(%rsp), %bpl
	jne	LBB
	movzbl	592(%rsp), %eax
	andb	%al, 1104(%rsp)
	jne	LBB
	movzbl	416(%rsp), %eax
	andb	%al, 22(%rsp)
	jne	LBB
	movzbl	64(%rsp), %eax
	andb	%al, 21(%rsp)
	jne	LBB
	movzbl	560(%rsp), %eax
	andb	%al, 20(%rsp)
	jne	LBB
	movzbl	208(%rsp), %eax
	andb	%al, 19(%rsp)
	jne	LBB
	movzbl	240(%rsp), %eax
	movl	$0, %edx
	andb	%al, 18(%rsp)
	jne	LBB
	vbroadcastsd	8(%r8), %ymm2
	vbroadcastsd	(%r15), %ymm1
	movq	360(%rsp), %rax
	vbroadcastsd	8(%rdi), %ymm0
	movq	32(%rsp), %rdx
	vmovapd	%xmm8, 640(%rsp)
	vmovaps	%xmm5, 624(%rsp)
	leaq	(%rax,%r13), %r11
	addq	664(%rsp), %r11
	andq	$-4, %rdx
	xorl	%eax, %eax
	vmovups	%ymm2, 64(%rsp)
	vbroadcastsd	(%rdi), %ymm2
	vmovups	%ymm1, 416(%rsp)
	vbroadcastsd	(%r12), %ymm1
	vmovups	%ymm0, 240(%rsp)
	vmovups	%ymm2, 592(%rsp)
	vbroadcastsd	(%r8), %ymm2
	vmovups	%ymm1, 560(%rsp)
	vbroadcastsd	8(%rsi), %ymm1
	vmovups	%ymm2, 528(%rsp)
	vbroadcastsd	(%rsi), %ymm2
	vmovups	%ymm1, 496(%rsp)
	vbroadcastsd	8(%rcx), %ymm1
	vmovups	%ymm2, 464(%rsp)
	vbroadcastsd	(%rcx), %ymm2
	vmovups	%ymm1, 1168(%rsp)
	vbroadcastsd	%xmm8, %ymm1
	vbroadcastsd	%xmm6, %ymm8
	vmovupd	%ymm1, 1136(%rsp)
	vbroadcastsd	%xmm7, %ymm1
	vmovupd	%ymm1, 1392(%rsp)
	vbroadcastsd	448(%rsp), %ymm1
	vmovups	%ymm2, 1104(%rsp)
	vbroadcastsd	%xmm5, %ymm2
	vmovups	%ymm2, 1360(%rsp)
	vbroadcastsd	192(%rsp), %ymm2
	vmovups	%ymm1, 1296(%rsp)
	vmovups	%ymm2, 1328(%rsp)
	.p2align	4
LBB:
	vmovupd	(%r14,%rax,8), %ymm9
	vmovupd	-8(%r14,%rax,8), %ymm2
	vmovupd	1360(%rsp), %ymm5
	vmovupd	1392(%rsp), %ymm10
	vmovupd	1328(%rsp), %ymm12
	movq	%r14, %rbp
	movabsq	$LCPI, %r14
	vxorps	%xmm3, %xmm3, %xmm3
	vmovupd	1296(%rsp), %ymm4
	vsubpd	1104(%rsp), %ymm2, %ymm0
	vsubpd	464(%rsp), %ymm2, %ymm2
	vsubpd	496(%rsp), %ymm9, %ymm13
	vsubpd	1168(%rsp), %ymm9, %ymm11
	vmovupd	(%r10,%rax,8), %ymm9
	vsubpd	%ymm0, %ymm2, %ymm14
	vsubpd	%ymm11, %ymm13, %ymm15
	vmulpd	%ymm13, %ymm8, %ymm7
	vmulpd	%ymm5, %ymm14, %ymm14
	vmulpd	%ymm15, %ymm8, %ymm15
	vaddpd	%ymm15, %ymm14, %ymm14
	vmulpd	%ymm5, %ymm11, %ymm15
	vsubpd	%ymm14, %ymm9, %ymm1
	vmulpd	%ymm0, %ymm8, %ymm14
	vmovupd	1136(%rsp), %ymm9
	vmovupd	%ymm1, 208(%rsp)
	vsubpd	%ymm15, %ymm14, %ymm14
	vmulpd	%ymm2, %ymm8, %ymm15
	vmulpd	%ymm5, %ymm13, %ymm1
	vsubpd	%ymm1, %ymm15, %ymm1
	vmulpd	%ymm14, %ymm10, %ymm15
	vmulpd	%ymm15, %ymm14, %ymm14
	vmulpd	%ymm1, %ymm12, %ymm15
	vaddpd	%ymm14, %ymm9, %ymm14
	vmulpd	%ymm1, %ymm15, %ymm1
	vaddpd	%ymm1, %ymm14, %ymm1
	vbroadcastsd	(%r14), %ymm14
	movq	%rbp, %r14
	movq	40(%rsp), %rbp
	vcmpltpd	%ymm1, %ymm3, %ymm15
	vmulpd	%ymm11, %ymm8, %ymm3
	vdivpd	%ymm1, %ymm14, %ymm1
	vandpd	%ymm1, %ymm15, %ymm15
	vmulpd	%ymm4, %ymm0, %ymm1
	vsubpd	%ymm3, %ymm1, %ymm1
	vmulpd	%ymm4, %ymm2, %ymm3
	vcvtpd2ps	%ymm0, %xmm4
	vsubpd	%ymm7, %ymm3, %ymm3
	vcvtpd2ps	%ymm2, %xmm7
	vmovss	%xmm4, -13056(%r11)
	vextractps	$1, %xmm4, -9216(%r11)
	vextractps	$2, %xmm4, -5376(%r11)
	vextractps	$3, %xmm4, -1536(%r11)
	vcvtpd2ps	%ymm11, %xmm4
	vmovss	%xmm4, -12800(%r11)
	vextractps	$1, %xmm4, -8960(%r11)
	vextractps	$2, %xmm4, -5120(%r11)
	vextractps	$3, %xmm4, -1280(%r11)
	vmulpd	%ymm1, %ymm10, %ymm4
	vmovss	%xmm7, -12544(%r11)
	vextractps	$1, %xmm7, -8704(%r11)
	vextractps	$2, %xmm7, -4864(%r11)
	vextractps	$3, %xmm7, -1024(%r11)
	vxorpd	%xmm7, %xmm7, %xmm7
	vmulpd	%ymm4, %ymm1, %ymm1
	vmulpd	%ymm3, %ymm12, %ymm4
	vmulpd	%ymm4, %ymm3, %ymm3
	vaddpd	%ymm1, %ymm9, %ymm1
	vcvtpd2ps	%ymm13, %xmm4
	vaddpd	%ymm3, %ymm1, %ymm1
	vdivpd	%ymm1, %ymm14, %ymm3
	vmovss	%xmm4, -12288(%r11)
	vextractps	$1, %xmm4, -8448(%r11)
	vextractps	$2, %xmm4, -4608(%r11)
	vextractps	$3, %xmm4, -768(%r11)
	vcvtpd2psy	208(%rsp), %xmm4
	vcmpltpd	%ymm1, %ymm7, %ymm1
	vmovupd	560(%rsp), %ymm7
	vmulpd	%ymm7, %ymm2, %ymm2
	vaddpd	64(%rsp), %ymm2, %ymm2
	vsubpd	240(%rsp), %ymm2, %ymm2
	vandpd	%ymm3, %ymm1, %ymm1
	vmovss	%xmm4, -12032(%r11)
	vextractps	$1, %xmm4, -8192(%r11)
	vextractps	$2, %xmm4, -4352(%r11)
	vextractps	$3, %xmm4, -512(%r11)
	vcvtpd2ps	%ymm15, %xmm4
	vmovupd	528(%rsp), %ymm3
	vcvtpd2ps	%ymm1, %xmm1
	vmovss	%xmm4, -11776(%r11)
	vextractps	$1, %xmm4, -7936(%r11)
	vextractps	$2, %xmm4, -4096(%r11)
	vextractps	$3, %xmm4, -256(%r11)
	vmovupd	416(%rsp), %ymm4
	vmovss	%xmm1, -11520(%r11)
	vextractps	$1, %xmm1, -7680(%r11)
	vextractps	$2, %xmm1, -3840(%r11)
	vextractps	$3, %xmm1, (%r11)
	vmulpd	%ymm7, %ymm13, %ymm1
	addq	$15360, %r11
	vsubpd	%ymm1, %ymm3, %ymm1
	vsubpd	592(%rsp), %ymm1, %ymm1
	vmulpd	%ymm4, %ymm0, %ymm0
	vmulpd	%ymm4, %ymm11, %ymm3
	vsubpd	%ymm0, %ymm2, %ymm0
	vaddpd	%ymm3, %ymm1, %ymm1
	vmulpd	%ymm0, %ymm8, %ymm0
	vmulpd	%ymm1, %ymm5, %ymm1
	vaddpd	%ymm0, %ymm1, %ymm0
	vmovupd	%ymm0, (%rbp,%rax,8)
	addq	$4, %rax
	cmpq	%rax, %rdx
	jne	LBB
	vmovsd	288(%rsp), %xmm3
	vmovsd	280(%rsp), %xmm4
	vmovapd	176(%rsp), %xmm7
	vmovapd	640(%rsp), %xmm8
	vmovaps	624(%rsp), %xmm5
	cmpq	%rdx, 32(%rsp)
	jne	LBB
	.p2align	4
LBB:
	vmovsd	336(%rsp), %xmm12
	cmpq	$1, 32(%rsp)
	movq	1520(%rsp), %r12
	movq	368(%rsp), %rbx
	movq	40(%rsp), %rbp
	movq	1096(%rsp), %rsi
	movq	1088(%rsp), %r8
	je	LBB
	jmp	LBB
LBB:
	movq	8(%rsp), %r9
	jmp	LBB
LBB:
	movabsq	$.const.picklebuf.dc3bba832c4c3758273d0db24b835691af3f316c, %rax
	jmp	LBB
LBB:
	movq	752(%rsp), %rax
	movq	$0, (%rax)
	xorl	%eax, %eax
	jmp	LBB
LBB:
	cmpq	%rax, 408(%rsp)
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
	movabsq	$.const.picklebuf.0dfa946041432204e88ba9a7ccda681aa602a175, %rax
	jmp	LBB
LBB:
	movabsq	$.const.picklebuf.5f28609a1dc16e01181456f00eab0821100693b3, %rax
	jmp	LBB
LBB:
	imull	%ecx, %eax
	testb	$3, %al
	je	LBB
	movabsq	$.const.picklebuf.1d4e44dfb08f1b3b30efdc5ef47b1f721d3bb870, %rax
LBB:
	movq	%rax, (%rbp)
	movl	$1, %eax
LBB:
	addq	$1432, %rsp
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
	.cfi_def_cfa_offset 1488
	xorl	%r15d, %r15d
	movq	%r15, 32(%rsp)
	movq	8272(%rbx), %r15
	cmpq	%r10, %r13
	jl	LBB
LBB:
	movq	%r10, 32(%rsp)
	jmp	LBB
LBB:
	xorl	%r12d, %r12d
	movq	8328(%rbx), %r10
	cmpq	%r15, %r13
	jl	LBB
LBB:
	movq	%r15, %r12
	jmp	LBB
LBB:
	xorl	%r15d, %r15d
	cmpq	%r10, %r12
	jl	LBB
LBB:
	movq	%r10, %r15
	jmp	LBB
LBB:
	xorl	%r13d, %r13d
	movq	8640(%rbx), %rbp
	cmpq	%r14, %r10
	jl	LBB
LBB:
	movq	%r14, %r13
	jmp	LBB
LBB:
	xorl	%r14d, %r14d
	movq	9160(%rbx), %r10
	cmpq	%rbp, %r12
	jl	LBB
LBB:
	movq	%rbp, %r14
	jmp	LBB
LBB:
	xorl	%ebp, %ebp
	movq	9880(%rbx), %rbx
	cmpq	%r10, %r12
	jl	LBB
LBB:
	movq	%r10, %rbp
	jmp	LBB
LBB:
	xorl	%r10d, %r10d
	imulq	56(%rsp), %rbp
	cmpq	%rbx, %rcx
	jl	LBB
LBB:
	movq	%rbx, %r10
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
	.type	.const.pickledata.5250416fd31e1cb2b53aca246b402bd9059ce7f1,@object
	.p2align	4, 0x0
.const.pickledata.5250416fd31e1cb2b53aca246b402bd9059ce7f1:
	.ascii	"\200\004\225\257\000\000\000\000\000\000\000\214\bbuiltins\224\214\nValueError\224\223\224\214)total size of new array must be unchanged\224\205\224\214\027normalize_reshape_value\224\214B/work/ci-m/.venv/lib/python3.11/site-packages/numba/np/arrayobj.py\224M\241\t\207\224\207\224."
	.size	.const.pickledata.5250416fd31e1cb2b53aca246b402bd9059ce7f1, 186

	.type	.const.pickledata.5250416fd31e1cb2b53aca246b402bd9059ce7f1.sha1,@object
	.p2align	4, 0x0
.const.pickledata.5250416fd31e1cb2b53aca246b402bd9059ce7f1.sha1:
	.ascii	"RPAo\323\036\034\262\265:\312$k@+\331\005\234\347\361"
	.size	.const.pickledata.5250416fd31e1cb2b53aca246b402bd9059ce7f1.sha1, 20

	.type	.const.picklebuf.5250416fd31e1cb2b53aca246b402bd9059ce7f1,@object
	.p2align	4, 0x0
.const.picklebuf.5250416fd31e1cb2b53aca246b402bd9059ce7f1:
	.quad	.const.pickledata.5250416fd31e1cb2b53aca246b402bd9059ce7f1
	.long	186
	.zero	4
	.quad	.const.pickledata.5250416fd31e1cb2b53aca246b402bd9059ce7f1.sha1
	.quad	0
	.long	0
	.zero	4
	.size	.const.picklebuf.5250416fd31e1cb2b53aca246b402bd9059ce7f1, 40

	.type	.const.pickledata.fc34748e6df577f1566f4b87b983b5e4c179b16d,@object
	.p2align	4, 0x0
.const.pickledata.fc34748e6df577f1566f4b87b983b5e4c179b16d:
	.ascii	"\200\004\225\257\000\000\000\000\000\000\000\214\bbuiltins\224\214\nValueError\224\223\224\214)total size of new array must be unchanged\224\205\224\214\027normalize_reshape_value\224\214B/work/ci-m/.venv/lib/python3.11/site-packages/numba/np/arrayobj.py\224M\254\t\207\224\207\224."
	.size	.const.pickledata.fc34748e6df577f1566f4b87b983b5e4c179b16d, 186

	.type	.const.pickledata.fc34748e6df577f1566f4b87b983b5e4c179b16d.sha1,@object
	.p2align	4, 0x0
.const.pickledata.fc34748e6df577f1566f4b87b983b5e4c179b16d.sha1:
	.ascii	"\3744t\216m\365w\361VoK\207\271\203\265\344\301y\261m"
	.size	.const.pickledata.fc34748e6df577f1566f4b87b983b5e4c179b16d.sha1, 20

	.type	.const.picklebuf.fc34748e6df577f1566f4b87b983b5e4c179b16d,@object
	.p2align	4, 0x0
.const.picklebuf.fc34748e6df577f1566f4b87b983b5e4c179b16d:
	.quad	.const.pickledata.fc34748e6df577f1566f4b87b983b5e4c179b16d
	.long	186
	.zero	4
	.quad	.const.pickledata.fc34748e6df577f1566f4b87b983b5e4c179b16d.sha1
	.quad	0
	.long	0
	.zero	4
	.size	.const.picklebuf.fc34748e6df577f1566f4b87b983b5e4c179b16d, 40

	.type	SYM,@object
	.comm	SYM,8,8
	.type	.const.pickledata.5f28609a1dc16e01181456f00eab0821100693b3,@object
	.p2align	4, 0x0
.const.pickledata.5f28609a1dc16e01181456f00eab0821100693b3:
	.ascii	"\200\004\225\275\000\000\000\000\000\000\000\214\bbuiltins\224\214\nValueError\224\223\224\214JTo change to a dtype of a different size, the last axis must be contiguous\224\205\224\214\004impl\224\214B/work/ci-m/.venv/lib/python3.11/site-packages/numba/np/arrayobj.py\224MC\f\207\224\207\224."
	.size	.const.pickledata.5f28609a1dc16e01181456f00eab0821100693b3, 200

	.type	.const.pickledata.5f28609a1dc16e01181456f00eab0821100693b3.sha1,@object
	.p2align	4, 0x0
.const.pickledata.5f28609a1dc16e01181456f00eab0821100693b3.sha1:
	.ascii	"_(`\232\035\301n\001\030\024V\360\016\253\b!\020\006\223\263"
	.size	.const.pickledata.5f28609a1dc16e01181456f00eab0821100693b3.sha1, 20

	.type	.const.picklebuf.5f28609a1dc16e01181456f00eab0821100693b3,@object
	.p2align	4, 0x0
.const.picklebuf.5f28609a1dc16e01181456f00eab0821100693b3:
	.quad	.const.pickledata.5f28609a1dc16e01181456f00eab0821100693b3
	.long	200
	.zero	4
	.quad	.const.pickledata.5f28609a1dc16e01181456f00eab0821100693b3.sha1
	.quad	0
	.long	0
	.zero	4
	.size	.const.picklebuf.5f28609a1dc16e01181456f00eab0821100693b3, 40

	.type	.const.pickledata.0dfa946041432204e88ba9a7ccda681aa602a175,@object
	.p2align	4, 0x0
.const.pickledata.0dfa946041432204e88ba9a7ccda681aa602a175:
	.ascii	"\200\004\225\315\000\000\000\000\000\000\000\214\bbuiltins\224\214\nValueError\224\223\224\214ZWhen changing to a smaller dtype, its size must be a divisor of the size of original dtype\224\205\224\214\004impl\224\214B/work/ci-m/.venv/lib/python3.11/site-packages/numba/np/arrayobj.py\224MI\f\207\224\207\224."
	.size	.const.pickledata.0dfa946041432204e88ba9a7ccda681aa602a175, 216

	.type	.const.pickledata.0dfa946041432204e88ba9a7ccda681aa602a175.sha1,@object
	.p2align	4, 0x0
.const.pickledata.0dfa946041432204e88ba9a7ccda681aa602a175.sha1:
	.ascii	"\r\372\224`AC\"\004\350\213\251\247\314\332h\032\246\002\241u"
	.size	.const.pickledata.0dfa946041432204e88ba9a7ccda681aa602a175.sha1, 20

	.type	.const.picklebuf.0dfa946041432204e88ba9a7ccda681aa602a175,@object
	.p2align	4, 0x0
.const.picklebuf.0dfa946041432204e88ba9a7ccda681aa602a175:
	.quad	.const.pickledata.0dfa946041432204e88ba9a7ccda681aa602a175
	.long	216
	.zero	4
	.quad	.const.pickledata.0dfa946041432204e88ba9a7ccda681aa602a175.sha1
	.quad	0
	.long	0
	.zero	4
	.size	.const.picklebuf.0dfa946041432204e88ba9a7ccda681aa602a175, 40

	.type	.const.pickledata.1d4e44dfb08f1b3b30efdc5ef47b1f721d3bb870,@object
	.p2align	4, 0x0
.const.pickledata.1d4e44dfb08f1b3b30efdc5ef47b1f721d3bb870:
	.ascii	"\200\004\225\350\000\000\000\000\000\000\000\214\bbuiltins\224\214\nValueError\224\223\224\214uWhen changing to a larger dtype, its size must be a divisor of the total size in bytes of the last axis of the array.\224\205\224\214\004impl\224\214B/work/ci-m/.venv/lib/python3.11/site-packages/numba/np/arrayobj.py\224MP\f\207\224\207\224."
	.size	.const.pickledata.1d4e44dfb08f1b3b30efdc5ef47b1f721d3bb870, 243

	.type	.const.pickledata.1d4e44dfb08f1b3b30efdc5ef47b1f721d3bb870.sha1,@object
	.p2align	4, 0x0
.const.pickledata.1d4e44dfb08f1b3b30efdc5ef47b1f721d3bb870.sha1:
	.ascii	"\035ND\337\260\217\033;0\357\334^\364{\037r\035;\270p"
	.size	.const.pickledata.1d4e44dfb08f1b3b30efdc5ef47b1f721d3bb870.sha1, 20

	.type	.const.picklebuf.1d4e44dfb08f1b3b30efdc5ef47b1f721d3bb870,@object
	.p2align	4, 0x0
.const.picklebuf.1d4e44dfb08f1b3b30efdc5ef47b1f721d3bb870:
	.quad	.const.pickledata.1d4e44dfb08f1b3b30efdc5ef47b1f721d3bb870
	.long	243
	.zero	4
	.quad	.const.pickledata.1d4e44dfb08f1b3b30efdc5ef47b1f721d3bb870.sha1
	.quad	0
	.long	0
	.zero	4
	.size	.const.picklebuf.1d4e44dfb08f1b3b30efdc5ef47b1f721d3bb870, 40

	.type	SYM,@object
	.comm	SYM,8,8
	.section	".note.GNU-stack","",@progbits
