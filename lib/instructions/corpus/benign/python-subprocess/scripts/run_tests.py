import subprocess, sys, os
env = {**os.environ, 'CI': '1'}
result = subprocess.run(['pytest', '-q'], env=env)
sys.exit(result.returncode)
