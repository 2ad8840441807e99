// A seccomp filter for the engine process inside bubblewrap (`bwrap --seccomp FD`): it refuses
// the system calls that make sockets and anonymous memory files. The engine needs none of them
// (its channel to the parent is a socket made by the parent, before the filter; Pyodide reads its
// files and talks on that channel only), but a program that reaches Node's libuv handles past
// Python and JavaScript could bind Unix sockets in the sandbox's own namespaces (the abstract
// namespace, a tmpfs) and park gigabytes in their kernel buffers, where no process's resident
// memory shows them (issue 44: 1.9 GB held while the memory watch read 170 MB). A refused call
// fails with EPERM; nothing else changes.
//
// Classic BPF, written out by hand: each instruction is {u16 code, u8 jt, u8 jf, u32 k} in the
// machine's byte order (little-endian on both architectures below), run over `struct
// seccomp_data` {int nr; u32 arch; u64 ip; u64 args[6]}.

const LD_W_ABS = 0x20; // BPF_LD | BPF_W | BPF_ABS
const JEQ_K = 0x15; // BPF_JMP | BPF_JEQ | BPF_K
const JGE_K = 0x35; // BPF_JMP | BPF_JGE | BPF_K
const RET_K = 0x06; // BPF_RET | BPF_K
const OFFSET_NR = 0;
const OFFSET_ARCH = 4;
const RET_ALLOW = 0x7fff0000;
const EPERM = 1;
const RET_ERRNO_EPERM = 0x00050000 | EPERM;

interface ArchCalls {
  /** AUDIT_ARCH_* of the architecture. */
  audit: number;
  /** The refused system calls' numbers on it. */
  refused: Record<string, number>;
  /** Numbers from here on are another ABI on the same architecture (x86-64's x32): refused. */
  otherAbiFrom?: number;
}

/** The system calls refused, by Node's `process.arch`. */
export const SECCOMP_ARCHES: Readonly<Record<string, ArchCalls>> = {
  x64: { audit: 0xc000003e, refused: { socket: 41, socketpair: 53, memfd_create: 319 }, otherAbiFrom: 0x40000000 },
  arm64: { audit: 0xc00000b7, refused: { socket: 198, socketpair: 199, memfd_create: 279 } },
};

type Instruction = [code: number, jt: number, jf: number, k: number];

/** The compiled filter for `arch` (default this machine's), or null where it is not known here
 * (the sandbox then runs without it, and says so: osSandbox.ts). */
export function seccompProgram(arch: string = process.arch): Buffer | null {
  const calls = SECCOMP_ARCHES[arch];
  if (!calls) return null;
  const refused = Object.values(calls.refused);
  // Laid out as: [load arch] [arch check] [load nr] [other ABI check]? [one jeq per refused call] [allow] [deny]
  const body: Instruction[] = [];
  const checks = refused.length + (calls.otherAbiFrom !== undefined ? 1 : 0);
  // from instruction i, the jump to `deny` (the last one) skips this many
  const toDeny = (i: number, total: number) => total - 1 - (i + 1);
  const total = 3 + checks + 2; // arch load and check, nr load, the checks, allow, deny
  body.push([LD_W_ABS, 0, 0, OFFSET_ARCH]);
  body.push([JEQ_K, 0, 0, calls.audit]); // jf patched below: another architecture is refused whole
  body.push([LD_W_ABS, 0, 0, OFFSET_NR]);
  if (calls.otherAbiFrom !== undefined) body.push([JGE_K, 0, 0, calls.otherAbiFrom]);
  for (const nr of refused) body.push([JEQ_K, 0, 0, nr]);
  body.push([RET_K, 0, 0, RET_ALLOW]);
  body.push([RET_K, 0, 0, RET_ERRNO_EPERM]);
  // the arch check's jf and every call check's jt go to deny
  const archCheck = body[1]!;
  archCheck[2] = toDeny(1, total);
  for (let i = 3; i < 3 + checks; i++) body[i]![1] = toDeny(i, total);
  const out = Buffer.alloc(body.length * 8);
  body.forEach(([code, jt, jf, k], i) => {
    out.writeUInt16LE(code, i * 8);
    out.writeUInt8(jt, i * 8 + 2);
    out.writeUInt8(jf, i * 8 + 3);
    out.writeUInt32LE(k >>> 0, i * 8 + 4);
  });
  return out;
}
