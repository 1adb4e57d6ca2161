"""The web page (``citeproof serve``): FastAPI app in :mod:`citeproof.web.app`, jobs in :mod:`citeproof.web.jobs`.

Needs the ``web`` extra (FastAPI, uvicorn, python-multipart).
"""
