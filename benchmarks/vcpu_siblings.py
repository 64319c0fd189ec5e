"""Whether this machine's two CPUs slow each other down: what caps two threads of a batch.

    python benchmarks/vcpu_siblings.py [--json benchmarks/results/vcpu_siblings_s17.json]

Compiles a small C program (``cc -O2 -pthread``) and runs it with thread A pinned to CPU 0 and
thread B to CPU 1:

* **ping-pong**: A and B hand one cache line back and forth; the fastest of 200 batches of
  2,000 round trips gives the one-way latency between the two CPUs (on Zen 3 about 7 ns
  between SMT siblings, which share L1 and L2, about 20 ns between cores of one CCX, 80 ns
  and more between CCXs).
* **alu** / **chase**: A times fixed batches of work (integer arithmetic in registers; a
  random walk over 64 MiB, a miss to memory at each step) while B alternately does the same
  kind of work and sleeps, in 20 ms phases; the ratio of A's median batch time with B busy
  to B idle says what B costs A. Separate cores: about 1.0 for ``alu``; SMT siblings share
  the execution units (1.3-2.0). ``chase`` shows the shared L3 and memory.

A guest's vCPU threads may move between the host's cores: the figures are those of the run.
On a loaded machine run it at real-time priority (``chrt -f 10``, root): otherwise A and B
seldom run at the same time. The program exits within a few seconds.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import tempfile
from statistics import median as _median

SOURCE = r"""
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static volatile int ball __attribute__((aligned(64)));
static volatile int phase_busy __attribute__((aligned(64)));
static volatile int stop __attribute__((aligned(64)));
static int mode;  /* 0 ping-pong, 1 alu, 2 chase */
static size_t *ring_a, *ring_b;
#define RING ((64u << 20) / sizeof(size_t))

static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t);
                          return t.tv_sec + 1e-9 * t.tv_nsec; }
static void pin(int cpu) { cpu_set_t s; CPU_ZERO(&s); CPU_SET(cpu, &s);
                           pthread_setaffinity_np(pthread_self(), sizeof s, &s); }
static uint64_t alu(uint64_t x, long n) {  /* four independent chains: throughput-bound */
    uint64_t a = x, b = x + 1, c = x + 2, d = x + 3;
    for (long i = 0; i < n; i++) { a = a * 6364136223846793005u + 1; b = b * 2862933555777941757u + 3;
                                   c = (c ^ (c >> 7)) + a; d = (d ^ (d << 9)) + b; }
    return a ^ b ^ c ^ d; }
static size_t chase(size_t *ring, size_t p, long n) { for (long i = 0; i < n; i++) p = ring[p]; return p; }
static size_t *make_ring(unsigned seed) {  /* one random cycle over RING slots */
    size_t *r = malloc(RING * sizeof(size_t)), *order = malloc(RING * sizeof(size_t));
    for (size_t i = 0; i < RING; i++) order[i] = i;
    for (size_t i = RING - 1; i > 0; i--) { size_t j = rand_r(&seed) % (i + 1), t = order[i]; order[i] = order[j]; order[j] = t; }
    for (size_t i = 0; i < RING; i++) r[order[i]] = order[(i + 1) % RING];
    free(order); return r; }

static void *b_thread(void *arg) {
    pin(1);
    if (mode == 0) {
        while (!stop) { while (ball != 1) if (stop) return 0; ball = 0; }
        return 0; }
    uint64_t sink = 0; size_t p = 0;
    while (!stop) {
        double t = now();
        phase_busy = 1;
        while (now() - t < 0.02) sink += mode == 1 ? alu(sink, 2000) : (p = chase(ring_b, p, 200));
        phase_busy = 0;
        usleep(20000); }
    return (void *)(uintptr_t)(sink + p); }

int main(int argc, char **argv) {
    mode = atoi(argv[1]);
    int batches = atoi(argv[2]);
    if (mode == 2) { ring_a = make_ring(1); ring_b = make_ring(2); }
    pthread_t b; pthread_create(&b, 0, b_thread, 0);  /* (before A is pinned: B would
        inherit CPU 0 and, at equal real-time priority, never run to move itself) */
    pin(0);
    uint64_t sink = 0; size_t p = 0;
    for (int k = 0; k < batches; k++) {
        double t = now();
        if (mode == 0) { for (int i = 0; i < 2000; i++) { ball = 1; while (ball != 0) ; } }
        else if (mode == 1) sink += alu(sink, 20000);
        else p = chase(ring_a, p, 2000);
        int busy = mode ? phase_busy : -1;
        printf("%d %.9f\n", busy, now() - t); }
    stop = 1; ball = 1;
    pthread_join(b, 0);
    fprintf(stderr, "%llu\n", (unsigned long long)(sink + p));
    return 0; }
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", default="")
    args = parser.parse_args()
    out = {"load_before": os.getloadavg()[0],
           "policy": os.sched_getscheduler(0), "affinity": sorted(os.sched_getaffinity(0))}
    with tempfile.TemporaryDirectory() as tmp:
        src, exe = os.path.join(tmp, "s.c"), os.path.join(tmp, "s")
        with open(src, "w") as f:
            f.write(SOURCE)
        subprocess.run(["cc", "-O2", "-pthread", src, "-o", exe], check=True)
        runs = {}
        for name, mode, batches in (("ping-pong", 0, 200), ("alu", 1, 40000), ("chase", 2, 4000)):
            lines = subprocess.run([exe, str(mode), str(batches)], capture_output=True, text=True,
                                   check=True, timeout=120).stdout.split()
            runs[name] = [(int(b), float(s)) for b, s in zip(lines[::2], lines[1::2])]
    one_way = min(s for _, s in runs["ping-pong"]) / 2000 / 2
    out["ping_pong_one_way_ns"] = round(one_way * 1e9, 1)
    out["ping_pong_median_one_way_ns"] = round(
        _median([s for _, s in runs["ping-pong"]]) / 4000 * 1e9, 1)
    for name in ("alu", "chase"):
        busy = [s for b, s in runs[name] if b == 1]
        idle = [s for b, s in runs[name] if b == 0]
        out[name] = {"batches_b_busy": len(busy), "batches_b_idle": len(idle),
                     "median_us_b_busy": round(_median(busy) * 1e6, 2),
                     "median_us_b_idle": round(_median(idle) * 1e6, 2),
                     "slowdown": round(_median(busy) / _median(idle), 3)}
    out["load_after"] = os.getloadavg()[0]
    print(json.dumps(out, indent=1))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
