"""Fetches a mail's parts decoded with Python's imaplib, as a client of the BINARY extension (RFC 3516) would:
BINARY.SIZE, a whole BINARY.PEEK and a partial one, a part in an encoding the server cannot decode (refused without
setting \\Seen), and BINARY without PEEK, which sets \\Seen. Prints what it got, as JSON."""
import base64
import hashlib
import imaplib
import json
import sys

port, user, password, uid = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
result = {}
imap = imaplib.IMAP4("127.0.0.1", port)
imap.login(user, password)
result["capabilities"] = list(imap.capabilities)
imap.select("INBOX")
typ, data = imap.uid("FETCH", uid, "(BINARY.SIZE[1] BINARY.SIZE[2])")
result["sizes"] = data[0].decode()
typ, data = imap.uid("FETCH", uid, "(BINARY.PEEK[2])")
result["whole_head"] = data[0][0].decode()
result["whole_sha256"] = hashlib.sha256(data[0][1]).hexdigest()
typ, data = imap.uid("FETCH", uid, "(BINARY.PEEK[2]<1000.500>)")
result["partial_head"] = data[0][0].decode()
result["partial"] = base64.b64encode(data[0][1]).decode()
typ, data = imap.uid("FETCH", uid, "(BINARY[3])")
result["unknown_cte"] = [typ, data[0].decode()]
typ, data = imap.uid("FETCH", uid, "(FLAGS)")
result["flags_before"] = data[0].decode()
typ, data = imap.uid("FETCH", uid, "(BINARY[1])")
result["text"] = data[0][1].decode("utf-8")
result["flags_after"] = data[1].decode()
imap.logout()
print(json.dumps(result))
