"""The HTTP server every gpuscope process serves on: HTTP/1.1 on asyncio, the connection guard, TLS, the web config."""
