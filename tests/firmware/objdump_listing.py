# llvm-objdump over many objects at once: one process per batch saves its
# start-up for each object, and its listing is split back by the header it
# prints before each object. stdlib only.
import re
import subprocess

# objdump names each object before its listing.
HEADER = re.compile(r"^(\S.*):\s+file format ")
# Objects per objdump run.
BATCH = 64


def listing_lines(objdump, objects, options=()):
    """Yields (object, line) for each line objdump prints of each object,
    the object as it was named on the command line."""
    objects = [str(o) for o in objects]
    for first in range(0, len(objects), BATCH):
        batch = objects[first:first + BATCH]
        out = subprocess.run([objdump, "-d", *options, *batch], capture_output=True,
                             text=True, check=True).stdout
        obj = batch[0]
        for line in out.splitlines():
            header = HEADER.match(line)
            if header:
                obj = header.group(1)
            else:
                yield obj, line
