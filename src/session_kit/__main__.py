from session_kit.cli import main

main()
