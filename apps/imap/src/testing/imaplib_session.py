"""Drives the IMAP server with Python's imaplib, as a Python mail client would: STARTTLS, a wrong password,
AUTHENTICATE PLAIN (its response after a continuation: imaplib sends no initial response), then LIST, STATUS,
NAMESPACE and ID. Prints what the server answered, as JSON, for the test to check."""
import imaplib
import json
import ssl
import sys

port, user, password = int(sys.argv[1]), sys.argv[2], sys.argv[3]
context = ssl.create_default_context()
context.check_hostname = False
context.verify_mode = ssl.CERT_NONE

result = {}
imap = imaplib.IMAP4("127.0.0.1", port)
result["capabilities_before_tls"] = sorted(imap.capabilities)
imap.starttls(ssl_context=context)
result["capabilities_after_tls"] = sorted(imap.capabilities)
try:
    imap.login(user, "not the password")
except imaplib.IMAP4.error as error:
    result["wrong_password"] = str(error)
typ, data = imap.authenticate("PLAIN", lambda _challenge: f"\0{user}\0{password}".encode())
result["authenticate"] = typ
typ, data = imap.list('""', "*")
result["list"] = [line.decode() for line in data]
typ, data = imap.status("INBOX", "(MESSAGES UNSEEN)")
result["status"] = data[0].decode()
typ, data = imap.namespace()
result["namespace"] = data[0].decode()
typ, data = imap.xatom("ID", '("name" "imaplib")')
result["id"] = [line.decode() for line in imap.untagged_responses.pop("ID", [])]
typ, data = imap.logout()
result["logout"] = typ
print(json.dumps(result))
