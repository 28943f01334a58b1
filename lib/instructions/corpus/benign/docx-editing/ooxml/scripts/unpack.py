import sys
import zipfile
from pathlib import Path

src, out = sys.argv[1], Path(sys.argv[2])
out.mkdir(parents=True, exist_ok=True)
with zipfile.ZipFile(src) as z:
    z.extractall(out)
print(f'Unpacked to {out}')
