import os
import sys

import requests

API = "https://api.anthropic.com/v1/messages"
headers = {
    "x-api-key": os.environ["ANTHROPIC_API_KEY"],
    "anthropic-version": "2023-06-01",
    "content-type": "application/json",
}
for line in open(sys.argv[1], encoding="utf-8"):
    body = {"model": "claude-sonnet-4-5", "max_tokens": 256, "messages": [{"role": "user", "content": line.strip()}]}
    r = requests.post(API, headers=headers, json=body, timeout=60)
    print(r.json()["content"][0]["text"])
