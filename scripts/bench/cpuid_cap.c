// cpuid_cap.c: makes a process see an AVX2 CPU on an AVX-512 one, for the peer's side of the
// AVX2 benchmark tables (scripts/bench/lib.sh, not part of the CMake build). msame follows
// ONEDNN_MAX_CPU_ISA=AVX2; ONNX Runtime has no such switch, and MLAS picks its kernels from
// CPUID. On a Zen 5 its AVX-512 kernels reach twice the AVX2 FMA peak, so an uncapped peer
// measures an AVX-512 machine against our AVX2 paths, not an AVX2 machine.
//
// Loaded with LD_PRELOAD, its constructor asks the kernel to make CPUID fault in this process
// (arch_prctl ARCH_SET_CPUID 0: Linux's "cpuid_fault", inherited by the process's threads), and
// a SIGSEGV handler answers each faulting CPUID itself: it turns faulting off for a moment, runs
// the instruction, clears the AVX-512 (and AMX) feature bits of leaves 7 and 0xD, and steps
// over it. Any other SIGSEGV goes on to the default action. Without cpuid_fault (CPUs or
// kernels that lack it) the constructor prints why and exits 3, so no table is made uncapped.
// Build: cc -O2 -shared -fPIC cpuid_cap.c -o cpuid_cap.so; use: LD_PRELOAD=./cpuid_cap.so CMD.
#define _GNU_SOURCE
#include <asm/prctl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

static long setCpuid(int on) { return syscall(SYS_arch_prctl, ARCH_SET_CPUID, on); }

static void cpuid(uint32_t leaf, uint32_t sub, uint32_t r[4]) {
  __asm__ volatile("cpuid" : "=a"(r[0]), "=b"(r[1]), "=c"(r[2]), "=d"(r[3]) : "a"(leaf), "c"(sub));
}

static void mask(uint32_t leaf, uint32_t sub, uint32_t r[4]) {
  if (leaf == 7 && sub == 0) {
    // EBX: AVX512F 16, DQ 17, IFMA 21, PF 26, ER 27, CD 28, BW 30, VL 31.
    r[1] &= ~((1u << 16) | (1u << 17) | (1u << 21) | (1u << 26) | (1u << 27) | (1u << 28) |
              (1u << 30) | (1u << 31));
    // ECX: VBMI 1, VBMI2 6, VNNI 11, BITALG 12, VPOPCNTDQ 14.
    r[2] &= ~((1u << 1) | (1u << 6) | (1u << 11) | (1u << 12) | (1u << 14));
    // EDX: 4VNNIW 2, 4FMAPS 3, VP2INTERSECT 8, AVX512_FP16 23, AMX-BF16 22, AMX-TILE 24, AMX-INT8 25.
    r[3] &= ~((1u << 2) | (1u << 3) | (1u << 8) | (1u << 22) | (1u << 23) | (1u << 24) |
              (1u << 25));
  } else if (leaf == 7 && sub == 1) {
    r[0] &= ~(1u << 5);  // AVX512_BF16
  } else if (leaf == 0xd && sub == 0) {
    r[0] &= ~0x600e0u;  // XCR0 bits the CPU supports: opmask, ZMM_Hi256, Hi16_ZMM, AMX tiles
  }
}

static void onSegv(int sig, siginfo_t* info, void* ctx) {
  ucontext_t* uc = (ucontext_t*)ctx;
  greg_t* g = uc->uc_mcontext.gregs;
  const uint8_t* ip = (const uint8_t*)g[REG_RIP];
  if (info->si_code == SI_KERNEL && ip[0] == 0x0f && ip[1] == 0xa2) {
    uint32_t r[4];
    const uint32_t leaf = (uint32_t)g[REG_RAX], sub = (uint32_t)g[REG_RCX];
    setCpuid(1);
    cpuid(leaf, sub, r);
    setCpuid(0);
    mask(leaf, sub, r);
    g[REG_RAX] = r[0];
    g[REG_RBX] = r[1];
    g[REG_RCX] = r[2];
    g[REG_RDX] = r[3];
    g[REG_RIP] += 2;
    return;
  }
  signal(sig, SIG_DFL);  // not ours: the fault happens again, with the default action
}

__attribute__((constructor)) static void capCpuid(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = onSegv;
  sa.sa_flags = SA_SIGINFO | SA_NODEFER;
  sigemptyset(&sa.sa_mask);
  if (sigaction(SIGSEGV, &sa, NULL) != 0 || setCpuid(0) != 0) {
    fprintf(stderr, "cpuid_cap: this CPU or kernel cannot make CPUID fault (no cpuid_fault in "
                    "/proc/cpuinfo): the peer cannot be capped at AVX2\n");
    _exit(3);
  }
}
