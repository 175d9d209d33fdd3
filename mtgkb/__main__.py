from mtgkb.cli import main

main()
