#!/usr/bin/env bash
# Independent signature tool: the chained HMAC-SHA-256 of spec 5.2 computed with openssl, not with svctui.
# Usage: openssl_sign.sh TOKEN_KEY METHOD REQUEST_TARGET REQUEST_DATE BODY_FILE   -> prints the base64 Signature
set -euo pipefail
export LC_ALL=C
key=$1 method=$2 target=$3 date=$4 body_file=$5

hmac_hex() {  # $1 = -macopt argument; stdin = message; prints the digest as lowercase hex
    openssl dgst -sha256 -mac HMAC -macopt "$1" -binary | od -An -v -tx1 | tr -d ' \n'
}

step1=$(printf '%s%s' "$method" "$target" | hmac_hex "key:$key")
step2=$(printf '%s' "${date:0:13}" | hmac_hex "hexkey:$step1")
openssl dgst -sha256 -mac HMAC -macopt "hexkey:$step2" -binary <"$body_file" | openssl base64 -A
echo
