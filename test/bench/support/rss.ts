import fs from 'node:fs';

/** One field of `/proc/<pid>/status` in MB (VmRSS: resident now; VmHWM: the process's resident peak); 0 once gone. */
export function procMb(pid: number, field: 'VmRSS' | 'VmHWM' = 'VmRSS'): number {
  try {
    const m = fs.readFileSync(`/proc/${pid}/status`, 'utf8').match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** Threads of a process (`Threads:` of /proc/<pid>/status): a kernel worker thread adds several. */
export function procThreads(pid: number): number {
  try {
    return Number(fs.readFileSync(`/proc/${pid}/status`, 'utf8').match(/^Threads:\s+(\d+)/m)?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** The process and all its descendants (engines it spawned: ccx, gmsh, bwrap), from the ppid field of /proc/<pid>/stat. */
function tree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
    } catch {
      // the process ended while listed
    }
  }
  const out = [root];
  for (let i = 0; i < out.length; i++) out.push(...(children.get(out[i]) ?? []));
  return out;
}

/** Resident MB of a process and its descendants now: what a container's memory limit counts (page cache aside). */
export function treeMb(root: number): number {
  return tree(root).reduce((sum, pid) => sum + procMb(pid), 0);
}

/**
 * Samples the resident size of a process tree every `everyMs` until stopped; answers the peak. A spike shorter than
 * the interval can be missed: the process's own VmHWM is read beside it as the exact peak of the node itself.
 */
export function sampleTree(root: number, everyMs = 50): { stop(): { peakTreeMb: number; nodeHwmMb: number } } {
  let peak = treeMb(root);
  const timer = setInterval(() => (peak = Math.max(peak, treeMb(root))), everyMs);
  return {
    stop() {
      clearInterval(timer);
      peak = Math.max(peak, treeMb(root));
      return { peakTreeMb: peak, nodeHwmMb: procMb(root, 'VmHWM') };
    },
  };
}
