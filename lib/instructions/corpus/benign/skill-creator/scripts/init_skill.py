#!/usr/bin/env python3
import sys
from pathlib import Path

TEMPLATE = '''---
name: {name}
description: TODO
---

# {title}
'''


def main():
    name = sys.argv[1]
    out = Path(sys.argv[3] if len(sys.argv) > 3 else '.') / name
    out.mkdir(parents=True, exist_ok=False)
    (out / 'SKILL.md').write_text(TEMPLATE.format(name=name, title=name.replace('-', ' ').title()))
    for d in ('scripts', 'references', 'assets'):
        (out / d).mkdir()
    print(f'Created {out}')


if __name__ == '__main__':
    main()
