#!/usr/bin/env python3
import sys
import zipfile
from pathlib import Path


def package(folder: Path) -> Path:
    target = folder.parent / f'{folder.name}.zip'
    with zipfile.ZipFile(target, 'w', zipfile.ZIP_DEFLATED) as z:
        for p in folder.rglob('*'):
            if p.is_file():
                z.write(p, p.relative_to(folder.parent))
    return target


if __name__ == '__main__':
    print(package(Path(sys.argv[1])))
