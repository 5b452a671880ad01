"""Changes a mailbox with Python's imaplib, as a Python mail client would: SELECT, SEARCH with CHARSET UTF-8 for
a Korean word, UID STORE +FLAGS, UID COPY, STORE \\Deleted and EXPUNGE. Prints what it got, as JSON."""
import imaplib
import json
import sys

port, user, password, word = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
result = {}
imap = imaplib.IMAP4("127.0.0.1", port)
imap.login(user, password)
imap.select("INBOX")
imap.literal = word.encode("utf-8")
typ, data = imap.uid("SEARCH", "CHARSET", "UTF-8", "BODY")
result["korean"] = data[0].decode()
typ, data = imap.uid("SEARCH", "UNSEEN")
result["unseen"] = data[0].decode()
uid = result["korean"].split()[0]
typ, data = imap.uid("STORE", uid, "+FLAGS", "(\\Flagged Work)")
result["store"] = [typ, [item.decode() for item in data if item]]
typ, data = imap.uid("COPY", uid, "Archive")
result["copy"] = typ
typ, data = imap.uid("STORE", uid, "+FLAGS.SILENT", "(\\Deleted)")
typ, data = imap.expunge()
result["expunge"] = [typ, [item.decode() for item in data if item]]
imap.logout()
print(json.dumps(result))
