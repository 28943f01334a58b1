import argparse
import socket
import subprocess
import sys
import time


def wait_for_port(port, timeout=30):
    start = time.time()
    while time.time() - start < timeout:
        try:
            with socket.create_connection(('localhost', port), timeout=1):
                return True
        except OSError:
            time.sleep(0.5)
    return False


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--server', action='append', required=True)
    parser.add_argument('--port', action='append', type=int, required=True)
    parser.add_argument('command', nargs=argparse.REMAINDER)
    args = parser.parse_args()
    servers = [subprocess.Popen(cmd, shell=True) for cmd in args.server]
    try:
        for port in args.port:
            if not wait_for_port(port):
                sys.exit(f'server on {port} did not start')
        cmd = args.command[1:] if args.command[:1] == ['--'] else args.command
        sys.exit(subprocess.run(cmd).returncode)
    finally:
        for s in servers:
            s.terminate()


if __name__ == '__main__':
    main()
