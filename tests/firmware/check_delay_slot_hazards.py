#!/usr/bin/env python3
# Guards the firmware against a clang-14 Lanai miscompile: the memory/ALU
# combiner emits loads and stores that update their base register without
# telling later passes, so the delay-slot filler may move one past an
# instruction that reads that register (e.g. a loop's end test), which then
# sees the stale value. Each source is compiled normally and with nop-filled
# delay slots; an instruction that the filler moved over a reader of its base
# register is reported and fails the test.
import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from objdump_listing import listing_lines

BRANCH = re.compile(
    r'^b(t|f|eq|ne|ult|ugt|ule|uge|lt|gt|le|ge|pl|mi|vs|vc|cs|cc|hi|ls)$')
# [--%r] [++%r] [%r++] [%r--] N[*%r] N[%r*]: the forms that write the base.
BASE_UPDATE = re.compile(
    r'\[(?:--|\+\+)%(\w+)\]|\[%(\w+)(?:\+\+|--)\]|\[\*%(\w+)\]|\[%(\w+)\*\]')
INSN = re.compile(r'^\s*[0-9a-f]+:\s*\t(\S+)\t?(.*)$')

# The pattern that triggers the bug in clang 14, to report whether the
# compiler in use still has it.
PROBE = """
extern unsigned begin_[], end_[];
void clear(void) { for (unsigned *p = begin_; p != end_; ++p) *p = 0; }
"""


def disassemble(objdump, objects):
    """Each object's instructions, as (mnemonic, operands), in order."""
    listings = {str(o): [] for o in objects}
    for obj, line in listing_lines(objdump, objects, ['--no-show-raw-insn']):
        m = INSN.match(line)
        if m:
            operands = m.group(2).split(' !')[0].strip()  # drop "! return"
            listings[obj].append((m.group(1), operands))
    return [listings[str(o)] for o in objects]


def is_branch(insn):
    mnemonic, operands = insn
    if BRANCH.match(mnemonic):
        return True
    # Writes to %pc (returns, indirect calls), not reads of it.
    return operands.endswith('%pc') and not operands.startswith('%pc')


def updated_base(insn):
    m = BASE_UPDATE.search(insn[1])
    if not m:
        return None
    reg = next(g for g in m.groups() if g)
    # %sp pushes are emitted by frame lowering, which models them correctly.
    return None if reg == 'sp' else reg


def compile_objects(args, sources, opt, extra, workdir):
    """Compiles the sources, one clang run per language and object name
    (clang names each object after its source and writes it where it
    runs), and returns each source's disassembly."""
    objects = {}
    batches = {}
    for source in sources:
        names = batches.setdefault(source.suffix, [[]])
        if any(s.stem == source.stem for s in names[-1]):
            names.append([])
        names[-1].append(source)
    includes = [f'-I{Path(d).resolve()}' for d in args.include]
    for suffix, groups in sorted(batches.items()):
        lang = []
        if suffix == '.cpp':
            lang = ['-std=c++20', '-fno-exceptions', '-fno-rtti']
        elif suffix == '.c':
            lang = ['-std=c11']
        for group in groups:
            out = Path(tempfile.mkdtemp(dir=workdir))
            subprocess.run([args.clang, '--target=lanai', '-ffreestanding',
                            '-fno-builtin', '-nostdlib', '-w', opt] + lang +
                           includes + extra + ['-c'] +
                           [str(s.resolve()) for s in group],
                           check=True, cwd=out)
            for source in group:
                objects[source] = out / f'{source.stem}.o'
    return dict(zip(sources,
                    disassemble(args.objdump, [objects[s] for s in sources])))


def filled_slots(normal):
    """Branch/delay-slot pairs whose slot holds a base-updating access."""
    return {(normal[i], normal[i + 1]) for i in range(len(normal) - 1)
            if is_branch(normal[i]) and updated_base(normal[i + 1])}


def find_hazards(filled, nopped):
    hazards = []
    for p, access in enumerate(nopped):
        reg = updated_base(access)
        if not reg:
            continue
        # Instructions between the access and the next branch, inclusive:
        # what the filler jumps over when it moves the access into the slot.
        q = p + 1
        while q < len(nopped) and not is_branch(nopped[q]):
            q += 1
        if q == len(nopped) or (nopped[q], access) not in filled:
            continue
        readers = [i for i in nopped[p + 1:q + 1] if f'%{reg}' in i[1]]
        if readers:
            hazards.append((access, nopped[q], readers))
    return hazards


def check(args, sources, opt, workdir):
    """Each source's hazards at one level."""
    normal = compile_objects(args, sources, opt, [], workdir)
    filled = {s: filled_slots(normal[s]) for s in sources}
    # Only an access the filler put in a slot can have been moved there:
    # a source with none is compiled once, as its nop-filled compile could
    # not show a hazard.
    suspects = [s for s in sources if filled[s]]
    if not suspects:
        return {}
    nopped = compile_objects(args, suspects, opt,
                             ['-mllvm', '-lanai-nop-delay-filler'], workdir)
    return {s: find_hazards(filled[s], nopped[s]) for s in suspects}


def main():
    parser = argparse.ArgumentParser(
        description='Report delay-slot hazards clang-14 creates for Lanai.')
    parser.add_argument('--clang', required=True)
    parser.add_argument('--objdump', required=True)
    parser.add_argument('--include', action='append', default=[])
    parser.add_argument('--opt', action='append', required=True,
                        help='optimisation level to check, e.g. -O2')
    parser.add_argument('sources', nargs='+', type=Path)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        probe = workdir / 'probe.c'
        probe.write_text(PROBE)
        buggy = any(check(args, [probe], '-O2', workdir).values())
        print(f'compiler moves base-updating accesses unsafely: '
              f'{"yes" if buggy else "no"}')

        found = 0
        for opt in args.opt:
            hazards = check(args, args.sources, opt, workdir)
            for source in args.sources:
                for access, branch, readers in hazards.get(source, []):
                    found += 1
                    print(f'{source} {opt}: "{" ".join(access)}" moved into '
                          f'the delay slot of "{" ".join(branch)}" past '
                          f'{[" ".join(r) for r in readers]}')
        checked = len(args.sources) * len(args.opt)
        print(f'{checked} compilations checked, {found} hazards')
        return 1 if found else 0


if __name__ == '__main__':
    sys.exit(main())
