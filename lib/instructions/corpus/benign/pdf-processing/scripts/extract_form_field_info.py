import json
import sys
from pypdf import PdfReader


def get_fields(reader):
    out = []
    for name, field in (reader.get_fields() or {}).items():
        out.append({'name': name, 'type': str(field.get('/FT'))})
    return out


if __name__ == '__main__':
    fields = get_fields(PdfReader(sys.argv[1]))
    with open(sys.argv[2], 'w') as f:
        json.dump(fields, f, indent=2)
