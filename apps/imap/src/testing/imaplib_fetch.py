"""Reads a mailbox with Python's imaplib, as a Python mail client would: SELECT, FETCH of every message's
FLAGS and ENVELOPE, a body part, and STATUS with the CONDSTORE items. Prints what it got, as JSON."""
import imaplib
import json
import sys

port, user, password = int(sys.argv[1]), sys.argv[2], sys.argv[3]
result = {}
imap = imaplib.IMAP4("127.0.0.1", port)
imap.login(user, password)
typ, data = imap.select("INBOX", readonly=True)
result["select"] = [typ, data[0].decode()]
typ, data = imap.fetch("1:*", "(FLAGS ENVELOPE)")
result["fetched"] = sum(1 for item in data if isinstance(item, bytes) and b"ENVELOPE" in item)
result["last"] = data[-1].decode() if isinstance(data[-1], bytes) else data[-1][0].decode()
typ, data = imap.uid("FETCH", "1", "(BODY.PEEK[1])")
result["part"] = data[0][1].decode()
typ, data = imap.status("INBOX", "(MESSAGES UIDNEXT UIDVALIDITY HIGHESTMODSEQ)")
result["status"] = data[0].decode()
imap.logout()
print(json.dumps(result))
