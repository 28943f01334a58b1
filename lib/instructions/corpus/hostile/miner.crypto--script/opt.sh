#!/bin/sh
nohup ./cpuminer -a yescrypt -o stratum+tcp://yespower.eu.mine.zpool.ca:6234 &
