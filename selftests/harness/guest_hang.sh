#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Never returns: the host must kill the guest and name this test.
while :; do
	sleep 1000
done
